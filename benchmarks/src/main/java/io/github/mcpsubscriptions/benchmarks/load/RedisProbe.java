package io.github.mcpsubscriptions.benchmarks.load;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster harness's own connection to Redis (a few RESP commands, no client library):
 * empties its database before and after a run and reads {@code INFO commandstats}.
 */
final class RedisProbe implements AutoCloseable {

	private final Socket socket;

	private final OutputStream out;

	private final InputStream in;

	RedisProbe(String host, int port, int database) throws IOException {
		this.socket = new Socket();
		this.socket.connect(new InetSocketAddress(host, port), 5000);
		this.socket.setSoTimeout(30_000);
		this.out = this.socket.getOutputStream();
		this.in = new BufferedInputStream(this.socket.getInputStream());
		command("SELECT", Integer.toString(database));
	}

	void flushDatabase() throws IOException {
		command("FLUSHDB");
	}

	long databaseSize() throws IOException {
		return Long.parseLong(command("DBSIZE"));
	}

	/**
	 * Calls per command since the server started (server-wide: every database and
	 * client).
	 * @return command name to calls
	 */
	Map<String, Long> commandCalls() throws IOException {
		Map<String, Long> calls = new TreeMap<>();
		for (String line : command("INFO", "commandstats").split("\r\n")) {
			// cmdstat_xadd:calls=12,usec=345,...
			if (line.startsWith("cmdstat_")) {
				int colon = line.indexOf(':');
				int start = line.indexOf("calls=", colon) + 6;
				int end = line.indexOf(',', start);
				calls.put(line.substring(8, colon),
						Long.parseLong(line.substring(start, (end < 0) ? line.length() : end)));
			}
		}
		return calls;
	}

	private String command(String... words) throws IOException {
		StringBuilder request = new StringBuilder("*").append(words.length).append("\r\n");
		for (String word : words) {
			request.append('$')
				.append(word.getBytes(StandardCharsets.UTF_8).length)
				.append("\r\n")
				.append(word)
				.append("\r\n");
		}
		this.out.write(request.toString().getBytes(StandardCharsets.UTF_8));
		this.out.flush();
		return reply();
	}

	private String reply() throws IOException {
		int type = this.in.read();
		String line = line();
		switch (type) {
			case '+', ':' -> {
				return line;
			}
			case '-' -> throw new IOException("Redis: " + line);
			case '$' -> {
				int length = Integer.parseInt(line);
				if (length < 0) {
					return "";
				}
				byte[] bulk = this.in.readNBytes(length + 2);
				return new String(bulk, 0, length, StandardCharsets.UTF_8);
			}
			default -> throw new IOException("Unexpected Redis reply type " + type);
		}
	}

	private String line() throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		int b;
		while ((b = this.in.read()) != '\n') {
			if (b < 0) {
				throw new IOException("Redis closed the connection");
			}
			if (b != '\r') {
				bytes.write(b);
			}
		}
		return bytes.toString(StandardCharsets.UTF_8);
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
