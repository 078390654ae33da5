package io.github.mcpsubscriptions.interop.jetty;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One HTTP/1.1 connection of its own, written and read byte for byte: what the container
 * sends on a stream (status line, headers, SSE comments, event ids) is what the tests
 * look at, with no client library in between.
 */
final class RawStream implements AutoCloseable {

	/** The 2026-era request metadata of a stateless request. */
	static final String META_2026 = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"jetty-test\",\"version\":\"1\"},"
			+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";

	private final Socket socket;

	private final int port;

	private final StringBuilder received = new StringBuilder();

	/** Where the next {@link #readUntil(String)} looks from. */
	private int consumed;

	private RawStream(Socket socket, int port) {
		this.socket = socket;
		this.port = port;
	}

	static RawStream connect(int port) throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
		// A stalled answer fails the test rather than hanging it.
		socket.setSoTimeout(5000);
		return new RawStream(socket, port);
	}

	RawStream sessionGet(String session, String lastEventId) throws IOException {
		return send("GET /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nAccept: text/event-stream\r\n"
				+ "Mcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: 2025-11-25\r\n"
				+ ((lastEventId != null) ? "Last-Event-ID: " + lastEventId + "\r\n" : "") + "\r\n");
	}

	RawStream listen(int id, String uri) throws IOException {
		return statelessPost(
				"{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"subscriptions/listen\",\"params\":{"
						+ "\"notifications\":{\"resourceSubscriptions\":[\"" + uri + "\"]}," + META_2026 + "}}",
				"subscriptions/listen");
	}

	RawStream read(int id, String uri) throws IOException {
		return statelessPost("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"resources/read\",\"params\":{"
				+ "\"uri\":\"" + uri + "\"," + META_2026 + "}}", "resources/read\r\nMcp-Name: " + uri);
	}

	private RawStream statelessPost(String body, String method) throws IOException {
		return send("POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nContent-Type: application/json\r\n"
				+ "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n" + "Mcp-Method: "
				+ method + "\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body);
	}

	private RawStream send(String request) throws IOException {
		OutputStream out = this.socket.getOutputStream();
		out.write(request.getBytes(StandardCharsets.UTF_8));
		out.flush();
		return this;
	}

	/**
	 * Everything received so far, read until the text arrives after what an earlier call
	 * waited for.
	 * @param text what to wait for
	 * @return all that was received on this connection
	 */
	String readUntil(String text) throws IOException {
		return readUntil(text, Duration.ofSeconds(5));
	}

	String readUntil(String text, Duration timeout) throws IOException {
		long deadline = System.nanoTime() + timeout.toNanos();
		InputStream in = this.socket.getInputStream();
		byte[] buffer = new byte[4096];
		while (this.received.indexOf(text, this.consumed) < 0) {
			long left = deadline - System.nanoTime();
			assertThat(left).as("no %s within %s: %s", text, timeout, this.received).isPositive();
			this.socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
			int read;
			try {
				read = in.read(buffer);
			}
			catch (SocketTimeoutException ex) {
				continue;
			}
			assertThat(read).as("the connection ended before %s: %s", text, this.received).isPositive();
			this.received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
		}
		this.consumed = this.received.indexOf(text, this.consumed) + text.length();
		return this.received.toString();
	}

	/**
	 * Whether the server ends the connection within the time, reading what it sends till
	 * then.
	 */
	boolean endsWithin(Duration timeout) throws IOException {
		long deadline = System.nanoTime() + timeout.toNanos();
		InputStream in = this.socket.getInputStream();
		byte[] buffer = new byte[4096];
		while (System.nanoTime() < deadline) {
			this.socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
			try {
				int read = in.read(buffer);
				if (read < 0) {
					return true;
				}
				this.received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
			}
			catch (SocketTimeoutException ex) {
				return false;
			}
			catch (IOException ex) {
				// A reset is an end too.
				return true;
			}
		}
		return false;
	}

	String received() {
		return this.received.toString();
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
