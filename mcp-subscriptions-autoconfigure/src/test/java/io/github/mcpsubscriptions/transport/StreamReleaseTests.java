package io.github.mcpsubscriptions.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.server.ListenStats;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import io.github.mcpsubscriptions.test.TestUsers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A stream whose client went away without a word is released within two heartbeat
 * intervals: its stream slot ({@code mcp.listen.max-streams}), its subscriptions and the
 * open-stream gauges. Only a failed write tells, and the first write to a closed
 * connection succeeds, so these tests set a short heartbeat interval; with the default
 * (15 s) the same takes up to 30 s, on purpose.
 */
class StreamReleaseTests {

	private static final Duration HEARTBEAT = Duration.ofMillis(300);

	/** Two heartbeat intervals, with room for a loaded build machine's scheduling. */
	private static final Duration PROMPTLY = HEARTBEAT.multipliedBy(2).plusMillis(900);

	/** "At once": within a second, with room for a loaded build machine. */
	private static final Duration AT_ONCE = Duration.ofMillis(1500);

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String META_2026 = McpTestClient.META_2026;

	private ConfigurableApplicationContext context;

	private int port;

	@AfterEach
	void close() {
		if (this.context != null && this.context.isActive()) {
			this.context.close();
		}
	}

	private McpTestClient start(String... properties) {
		return start(HEARTBEAT, properties);
	}

	private McpTestClient start(Duration heartbeat, String... properties) {
		String[] args = new String[properties.length + 2];
		args[0] = "--server.port=0";
		args[1] = "--mcp.endpoint.heartbeat-interval=" + heartbeat.toMillis() + "ms";
		for (int i = 0; i < properties.length; i++) {
			args[i + 2] = "--" + properties[i];
		}
		this.context = new SpringApplication(McpTestApplication.class, Resources.class, TestUsers.class).run(args);
		this.port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		return new McpTestClient(this.port);
	}

	@Test
	void aListenStreamWhoseClientClosesTheConnectionIsReleasedWithinTwoHeartbeats() throws Exception {
		McpTestClient client = start("mcp.listen.max-streams=1");
		ListenManager listens = this.context.getBean(ListenManager.class);
		McpEndpoint endpoint = this.context.getBean(McpEndpoint.class);
		try (Socket socket = connect()) {
			String body = listenBody(1, "[\"r://items\"]");
			send(socket,
					"POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nContent-Type: application/json\r\n"
							+ "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
							+ "Mcp-Method: subscriptions/listen\r\nContent-Length: "
							+ body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body);
			readUntil(socket, "notifications/subscriptions/acknowledged");
			assertThat(listens.getOpenStreamCount()).isOne();
		}
		await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(20)).until(() -> listens.getOpenStreamCount() == 0);
		assertThat(listens.getStats().getEnded(ListenStats.End.CLIENT)).isOne();
		await().atMost(PROMPTLY).until(() -> endpoint.getOpenStreamCount() == 0);
		// The slot is free again: the next listen is served.
		try (SseStream next = client.listen("{\"resourceSubscriptions\":[\"r://items\"]}")) {
			assertThat(next.response().statusCode()).isEqualTo(200);
			assertThat(next.nextMessage(WAIT)).isNotNull();
		}
	}

	@Test
	void aSessionStreamWhoseClientClosesTheConnectionIsReleasedWithinTwoHeartbeats() throws Exception {
		McpTestClient client = start();
		McpSessionManager sessions = this.context.getBean(McpSessionManager.class);
		McpEndpoint endpoint = this.context.getBean(McpEndpoint.class);
		String session = client.initialize("2025-11-25");
		try (Socket socket = connect()) {
			send(socket, "GET /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nAccept: text/event-stream\r\n"
					+ "Mcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n");
			readUntil(socket, ":stream open");
			await().atMost(WAIT).until(() -> sessions.getStream(session) != null);
			assertThat(sessions.getOpenStreamCount()).isOne();
		}
		await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(20)).until(() -> sessions.getOpenStreamCount() == 0);
		assertThat(sessions.getStream(session)).isNull();
		await().atMost(PROMPTLY).until(() -> endpoint.getOpenStreamCount() == 0);
		// The session lives on, and takes a new stream.
		try (SseStream again = client.openStream(session)) {
			assertThat(again.response().statusCode()).isEqualTo(200);
		}
	}

	@Test
	void anHttp2ListenStreamItsClientEndsIsReleasedAtOnceWhateverTheHeartbeats() throws Exception {
		// Over HTTP/2 a client's end of its stream is a frame (RST_STREAM) the container
		// reads at once; over HTTP/1.1 only a failed write tells (the tests above).
		// HTTP/2 requests carry no Host header, which DNS-rebinding protection requires.
		start(Duration.ofSeconds(30), "server.http2.enabled=true", "mcp.endpoint.dns-rebinding-protection=false");
		ListenManager listens = this.context.getBean(ListenManager.class);
		McpEndpoint endpoint = this.context.getBean(McpEndpoint.class);
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
		// The first request upgrades the connection to HTTP/2.
		client.send(HttpRequest.newBuilder(new McpTestClient(this.port).endpoint()).GET().build(),
				HttpResponse.BodyHandlers.discarding());
		SseStream stream = new SseStream(
				client.send(statelessPost(listenBody(7, "[\"r://items\"]"), "subscriptions/listen", null).build(),
						HttpResponse.BodyHandlers.ofInputStream()));
		assertThat(stream.response().version()).isEqualTo(HttpClient.Version.HTTP_2);
		assertThat(stream.nextMessage(WAIT)).isNotNull();
		assertThat(listens.getOpenStreamCount()).isOne();
		stream.close();
		await().atMost(AT_ONCE).pollInterval(Duration.ofMillis(20)).until(() -> listens.getOpenStreamCount() == 0);
		await().atMost(AT_ONCE).until(() -> endpoint.getOpenStreamCount() == 0);
	}

	@Test
	void aDeletedSessionsStreamIsReleasedAtOnceWhateverTheHeartbeats() throws Exception {
		McpTestClient client = start(Duration.ofSeconds(30));
		McpSessionManager sessions = this.context.getBean(McpSessionManager.class);
		McpEndpoint endpoint = this.context.getBean(McpEndpoint.class);
		String session = client.initialize("2025-11-25");
		try (SseStream stream = client.openStream(session)) {
			await().atMost(WAIT).until(() -> sessions.getOpenStreamCount() == 1);
			assertThat(client.delete(session).statusCode()).isEqualTo(204);
			await().atMost(AT_ONCE).pollInterval(Duration.ofMillis(20)).until(() -> sessions.getOpenStreamCount() == 0);
			await().atMost(AT_ONCE).until(() -> endpoint.getOpenStreamCount() == 0);
			assertThat(stream.awaitEnd(WAIT)).isTrue();
		}
	}

	@Test
	void aCancelThatCouldNameEitherOfTwoStreamsEndsNeither() throws Exception {
		start();
		ListenManager listens = this.context.getBean(ListenManager.class);
		// Two clients of one principal, whose listen requests have the same id: the
		// cancel
		// cannot tell whose it is, and the one that sent it closes its stream as well.
		try (SseStream first = listen(3, "alice"); SseStream second = listen(3, "alice")) {
			assertThat(first.nextMessage(WAIT)).isNotNull();
			assertThat(second.nextMessage(WAIT)).isNotNull();
			assertThat(cancel(3, "alice").statusCode()).isEqualTo(202);
			this.context.publishEvent(new ResourceChangedEvent("r://items/1", Map.of()));
			assertThat(first.nextMessage(WAIT)).isNotNull();
			assertThat(second.nextMessage(WAIT)).isNotNull();
			assertThat(listens.getOpenStreamCount()).isEqualTo(2);
		}
	}

	private SseStream listen(int id, String user) throws IOException, InterruptedException {
		HttpRequest.Builder request = statelessPost(listenBody(id, "[\"r://items\"]"), "subscriptions/listen", user);
		return new SseStream(
				HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofInputStream()));
	}

	private HttpResponse<String> cancel(int id, String user) throws IOException, InterruptedException {
		String body = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + id
				+ ",\"reason\":\"done\"," + META_2026 + "}}";
		return HttpClient.newHttpClient()
			.send(statelessPost(body, "notifications/cancelled", user).build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest.Builder statelessPost(String body, String method, String user) {
		HttpRequest.Builder request = new McpTestClient(this.port).postRequest(body)
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", method);
		if (user != null) {
			request.header("X-Test-User", user);
		}
		return request;
	}

	private static String listenBody(int id, String uris) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"subscriptions/listen\",\"params\":{"
				+ "\"notifications\":{\"resourceSubscriptions\":" + uris + "}," + META_2026 + "}}";
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 5000);
		socket.setSoTimeout((int) WAIT.toMillis());
		return socket;
	}

	private static void send(Socket socket, String request) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(request.getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

	private static void readUntil(Socket socket, String text) throws IOException {
		InputStream in = socket.getInputStream();
		StringBuilder received = new StringBuilder();
		byte[] buffer = new byte[4096];
		while (received.indexOf(text) < 0) {
			int read = in.read(buffer);
			assertThat(read).as("the stream ended before " + text + ": " + received).isPositive();
			received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
		}
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

		@McpResource(uri = "r://items/{id}")
		String item(String id) {
			return id;
		}

	}

}
