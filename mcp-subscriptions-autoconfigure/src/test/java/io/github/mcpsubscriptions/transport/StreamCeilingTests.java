package io.github.mcpsubscriptions.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connector's ceiling on a real Tomcat with a small {@code max-connections}: past the
 * limit less the reserve a new stream of either era is answered at once with 503 and
 * {@code Retry-After}, never left waiting for a connection, while requests on new
 * connections are still answered; health and meters show the streams against the limit.
 */
class StreamCeilingTests {

	private static final int MAX_CONNECTIONS = 14;

	private static final int RESERVE = 6;

	private static final int MAX_STREAMS = MAX_CONNECTIONS - RESERVE;

	private static final Duration AT_ONCE = Duration.ofSeconds(1);

	private ConfigurableApplicationContext context;

	private int port;

	private final List<Socket> sockets = new ArrayList<>();

	@AfterEach
	void close() throws IOException {
		for (Socket socket : this.sockets) {
			socket.close();
		}
		if (this.context != null && this.context.isActive()) {
			this.context.close();
		}
	}

	@Test
	void aStreamPastTheCeilingIsAnswered503AtOnceAndRequestsAreStillAnswered() throws Exception {
		this.context = new SpringApplication(McpTestApplication.class, Resources.class).run("--server.port=0",
				"--server.tomcat.max-connections=" + MAX_CONNECTIONS, "--mcp.endpoint.connection-reserve=" + RESERVE);
		this.port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		McpEndpoint endpoint = this.context.getBean(McpEndpoint.class);
		assertThat(endpoint.getMaxStreams()).isEqualTo(MAX_STREAMS);
		McpTestClient client = new McpTestClient(this.port);
		List<String> sessions = new ArrayList<>();
		for (int i = 0; i < MAX_STREAMS / 2; i++) {
			sessions.add(client.initialize("2025-11-25"));
		}
		// Half the streams of each era, each on a connection of its own.
		for (String session : sessions) {
			Socket socket = connect();
			send(socket, sessionGet(session));
			assertThat(readUntil(socket, ":stream open")).startsWith("HTTP/1.1 200");
		}
		for (int i = 0; i < MAX_STREAMS - sessions.size(); i++) {
			Socket socket = connect();
			send(socket, listen(i));
			assertThat(readUntil(socket, "notifications/subscriptions/acknowledged")).startsWith("HTTP/1.1 200");
		}
		assertThat(endpoint.getOpenStreamCount()).isEqualTo(MAX_STREAMS);

		// Past the ceiling: both eras answered at once, with Retry-After.
		long started = System.nanoTime();
		Socket refusedListen = connect();
		send(refusedListen, listen(99));
		String answer = readUntil(refusedListen, "}}");
		assertThat(answer).startsWith("HTTP/1.1 503").containsIgnoringCase("Retry-After: ").contains("-32000");
		Socket refusedGet = connect();
		send(refusedGet, sessionGet(sessions.get(0)));
		assertThat(readUntil(refusedGet, "}}")).startsWith("HTTP/1.1 503").containsIgnoringCase("Retry-After: ");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(AT_ONCE.multipliedBy(2));

		// A request on a new connection is still answered.
		started = System.nanoTime();
		Socket reader = connect();
		send(reader,
				statelessPost(
						"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\",\"params\":{"
								+ "\"uri\":\"r://items\"," + McpTestClient.META_2026 + "}}",
						"resources/read\r\nMcp-Name: r://items"));
		assertThat(readUntil(reader, "}}")).startsWith("HTTP/1.1 200").contains("\"contents\"");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(AT_ONCE);
		assertThat(endpoint.getOpenStreamCount()).isEqualTo(MAX_STREAMS);
		assertThat(endpoint.getRefusedStreamCount()).isEqualTo(2);

		Health health = this.context.getBean("mcpStreamsHealthIndicator", HealthIndicator.class).health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("streams", MAX_STREAMS)
			.containsEntry("maxStreams", MAX_STREAMS)
			.containsEntry("streamsUsed", "100%")
			.containsEntry("refusedStreams", 2L);
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		this.context.getBean("mcpStreamCeilingMetrics", MeterBinder.class).bindTo(registry);
		assertThat(registry.get("mcp.streams.max").gauge().value()).isEqualTo(MAX_STREAMS);
		assertThat(registry.get("mcp.streams.refused").functionCounter().count()).isEqualTo(2);
	}

	@Test
	void byDefaultTheCeilingIsTomcatsLimitLessTheDefaultReserve() {
		this.context = new SpringApplication(McpTestApplication.class, Resources.class).run("--server.port=0");
		assertThat(this.context.getBean(McpEndpoint.class).getMaxStreams()).isEqualTo(8192 - 200);
	}

	private String sessionGet(String session) {
		return "GET /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nAccept: text/event-stream\r\n"
				+ "Mcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n";
	}

	private String listen(int id) {
		return statelessPost("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"subscriptions/listen\",\"params\":{"
				+ "\"notifications\":{\"resourceSubscriptions\":[\"r://items\"]}," + McpTestClient.META_2026 + "}}",
				"subscriptions/listen");
	}

	private String statelessPost(String body, String method) {
		return "POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nContent-Type: application/json\r\n"
				+ "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n" + "Mcp-Method: "
				+ method + "\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket();
		this.sockets.add(socket);
		socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 5000);
		// A stalled handshake or answer fails the test rather than hanging it.
		socket.setSoTimeout(5000);
		return socket;
	}

	private static void send(Socket socket, String request) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(request.getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

	private static String readUntil(Socket socket, String text) throws IOException {
		InputStream in = socket.getInputStream();
		StringBuilder received = new StringBuilder();
		byte[] buffer = new byte[4096];
		while (received.indexOf(text) < 0) {
			int read = in.read(buffer);
			assertThat(read).as("the answer ended before " + text + ": " + received).isPositive();
			received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
		}
		return received.toString();
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Items items() {
			return new Items();
		}

	}

	static class Items {

		@McpResource(uri = "r://items")
		String all() {
			return "[]";
		}

	}

}
