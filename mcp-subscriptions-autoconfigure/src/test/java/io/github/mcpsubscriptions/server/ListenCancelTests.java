package io.github.mcpsubscriptions.server;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.github.mcpsubscriptions.test.TestUsers;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code notifications/cancelled} for a listen stream ends a stream of the very client
 * that sent it, never another's: request ids repeat across clients ({@code listen:0} of
 * every TypeScript SDK client), clients behind one proxy share an address and the holders
 * of one token share a principal. Two real clients on real connections each time.
 */
class ListenCancelTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String ID = "\"listen:0\"";

	private ConfigurableApplicationContext context;

	private int port;

	@AfterEach
	void close() {
		if (this.context != null && this.context.isActive()) {
			this.context.close();
		}
	}

	private ListenManager start(String... properties) {
		String[] args = new String[properties.length + 2];
		args[0] = "--server.port=0";
		// A stream closed over HTTP/1.1 is found by the second heartbeat after.
		args[1] = "--mcp.endpoint.heartbeat-interval=300ms";
		System.arraycopy(properties, 0, args, 2, properties.length);
		this.context = new SpringApplication(McpTestApplication.class, ListenTests.Resources.class, TestUsers.class)
			.run(args);
		this.port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		return this.context.getBean(ListenManager.class);
	}

	@Test
	void aCancelFromAClientWhoseStreamIsGoneEndsNoOtherClientsStream() throws Exception {
		ListenManager listens = start();
		// Anonymous clients on one address (one proxy), then two holders of one token.
		for (String user : Arrays.asList(null, "alice")) {
			HttpClient clientA = http1();
			SseStream streamA = listen(clientA, user);
			try (SseStream streamB = listen(http1(), user)) {
				streamA.close();
				await().atMost(WAIT).until(() -> listens.getOpenStreamCount() == 1);
				long ended = listens.getStats().getEnded(ListenStats.End.CLIENT);

				assertThat(cancel(clientA, ID, user).statusCode()).isEqualTo(202);

				this.context.publishEvent(new ResourceChangedEvent("l://items/1", Map.of()));
				SseEvent delivered = streamB.nextMessage(WAIT);
				assertThat(delivered).as("B's stream is still served (" + user + ")").isNotNull();
				assertThat(json(delivered.data()).get("method").stringValue())
					.isEqualTo("notifications/resources/updated");
				assertThat(listens.getOpenStreamCount()).isOne();
				assertThat(listens.getStats().getEnded(ListenStats.End.CLIENT)).isEqualTo(ended);
			}
			await().atMost(WAIT).until(() -> listens.getOpenStreamCount() == 0);
		}
	}

	@Test
	void aCancelOverTheStreamsOwnConnectionEndsThatStreamOnly() throws Exception {
		// HTTP/2 (h2c), on which a client's cancellation can come over its stream's
		// connection.
		// With the DNS-rebinding protection on, as by default: HTTP/2 names the host in
		// :authority, not in a Host header.
		ListenManager listens = start("--server.http2.enabled=true");
		HttpClient clientA = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
		// The first request upgrades A's connection to HTTP/2; its listen and its cancel
		// share it.
		clientA.send(HttpRequest.newBuilder(new McpTestClient(this.port).endpoint()).GET().build(),
				HttpResponse.BodyHandlers.discarding());
		try (SseStream streamA = listen(clientA, "alice"); SseStream streamB = listen(http1(), "alice")) {
			assertThat(streamA.response().version()).isEqualTo(HttpClient.Version.HTTP_2);
			assertThat(streamB.response().version()).isEqualTo(HttpClient.Version.HTTP_1_1);

			// B's cancel comes over a connection of its own: it cannot tell whose stream
			// it is.
			assertThat(cancel(http1(), ID, "alice").statusCode()).isEqualTo(202);
			// Over A's connection, another id or another principal names no stream
			// either.
			assertThat(cancel(clientA, "\"listen:1\"", "alice").statusCode()).isEqualTo(202);
			assertThat(cancel(clientA, ID, "bob").statusCode()).isEqualTo(202);
			assertThat(cancel(clientA, ID, null).statusCode()).isEqualTo(202);
			this.context.publishEvent(new ResourceChangedEvent("l://items/0", Map.of()));
			assertThat(streamA.nextMessage(WAIT)).as("A's stream is still served").isNotNull();
			assertThat(streamB.nextMessage(WAIT)).isNotNull();
			assertThat(listens.getOpenStreamCount()).isEqualTo(2);

			assertThat(cancel(clientA, ID, "alice").statusCode()).isEqualTo(202);
			assertThat(streamA.nextMessage(WAIT)).as("no response to a cancelled request").isNull();
			assertThat(streamA.awaitEnd(WAIT)).isTrue();
			await().atMost(WAIT).until(() -> listens.getOpenStreamCount() == 1);
			this.context.publishEvent(new ResourceChangedEvent("l://items/1", Map.of()));
			assertThat(streamB.nextMessage(WAIT)).as("B's stream is still served").isNotNull();
		}
	}

	private static HttpClient http1() {
		return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
	}

	private SseStream listen(HttpClient client, @Nullable String user) throws IOException, InterruptedException {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":" + ID + ",\"method\":\"subscriptions/listen\",\"params\":{"
				+ "\"notifications\":{\"resourceSubscriptions\":[\"l://items\"]}," + McpTestClient.META_2026 + "}}";
		SseStream stream = new SseStream(
				client.send(request(body, "subscriptions/listen", user), HttpResponse.BodyHandlers.ofInputStream()));
		assertThat(stream.response().statusCode()).isEqualTo(200);
		SseEvent acknowledged = stream.nextMessage(WAIT);
		assertThat(acknowledged).isNotNull();
		assertThat(json(acknowledged.data()).get("method").stringValue()).isEqualTo(ListenManager.ACKNOWLEDGED);
		return stream;
	}

	private HttpResponse<String> cancel(HttpClient client, String id, @Nullable String user)
			throws IOException, InterruptedException {
		String body = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + id
				+ ",\"reason\":\"done\"," + McpTestClient.META_2026 + "}}";
		return client.send(request(body, "notifications/cancelled", user), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String body, String method, @Nullable String user) {
		HttpRequest.Builder request = new McpTestClient(this.port).postRequest(body)
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", method);
		if (user != null) {
			request.header("X-Test-User", user);
		}
		return request.build();
	}

}
