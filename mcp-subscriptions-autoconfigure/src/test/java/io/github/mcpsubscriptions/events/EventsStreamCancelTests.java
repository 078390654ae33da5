package io.github.mcpsubscriptions.events;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

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
 * A {@code notifications/cancelled} for a push stream ends the stream of the client that
 * sent it over that stream's own connection (HTTP/2), and nobody else's; the stream's
 * resources are released and nothing is written after. A shutdown ends streams with their
 * result. Each with an application of its own.
 */
class EventsStreamCancelTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private ConfigurableApplicationContext context;

	private int port;

	@AfterEach
	void close() {
		if (this.context != null && this.context.isActive()) {
			this.context.close();
		}
	}

	@Test
	void aCancelOverTheStreamsOwnConnectionEndsThatStreamOnlyAndReleasesIt() throws Exception {
		this.context = new SpringApplication(EventsTestApplication.class, TestUsers.class).run("--server.port=0",
				"--server.http2.enabled=true", "--mcp.events.enabled=true",
				"--mcp.events.push.heartbeat-interval=300ms", "--mcp.events.push.scan-interval=20ms");
		this.port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		EventStreams streams = this.context.getBean(EventStreams.class);
		HttpClient clientA = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
		// The first request upgrades A's connection to HTTP/2; its stream and its cancel
		// share it.
		clientA.send(HttpRequest.newBuilder(new McpTestClient(this.port).endpoint()).GET().build(),
				HttpResponse.BodyHandlers.discarding());
		HttpClient clientB = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		try (SseStream streamA = open(clientA, "alice"); SseStream streamB = open(clientB, "alice")) {
			assertThat(streamA.response().version()).isEqualTo(HttpClient.Version.HTTP_2);
			assertThat(streams.getStreamCount("alice")).isEqualTo(2);
			// Over another connection, or from another principal, it names no stream.
			assertThat(cancel(clientB, "9", "alice").statusCode()).isEqualTo(202);
			assertThat(cancel(clientA, "9", "bob").statusCode()).isEqualTo(202);
			assertThat(cancel(clientA, "10", "alice").statusCode()).isEqualTo(202);
			assertThat(streams.getOpenStreamCount()).isEqualTo(2);

			assertThat(cancel(clientA, "9", "alice").statusCode()).isEqualTo(202);
			assertThat(streamA.awaitEnd(WAIT)).isTrue();
			await().atMost(WAIT).until(() -> streams.getOpenStreamCount() == 1);
			assertThat(streams.getStreamCount("alice")).isOne();
			this.context.publishEvent(new AlertRaised(1, "high"));
			assertThat(EventsStreamTests.params(streamB, EventsWire.EVENT).get("data").get("number").intValue())
				.isEqualTo(1);
			SseEvent before;
			while ((before = streamA.next(Duration.ZERO)) != null) {
				// What was written before the cancel: heartbeats, never a result.
				assertThat(json(before.data()).has("method")).as("no response to a cancelled request").isTrue();
			}
		}
		await().atMost(WAIT).until(() -> streams.getOpenStreamCount() == 0);
		assertThat(streams.getStreamCount("alice")).isZero();
	}

	@Test
	void aShutdownAnswersEachStreamWithItsResultThenClosesIt() throws Exception {
		this.context = new SpringApplication(EventsTestApplication.class, TestUsers.class).run("--server.port=0",
				"--mcp.events.enabled=true");
		this.port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		try (SseStream stream = open(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), null)) {
			this.context.close();
			SseEvent last = stream.nextMessage(WAIT);
			assertThat(last).isNotNull();
			assertThat(json(last.data()).get("id").intValue()).isEqualTo(9);
			assertThat(json(last.data()).get("result").get("resultType").stringValue()).isEqualTo("complete");
			assertThat(stream.awaitEnd(WAIT)).isTrue();
		}
	}

	private SseStream open(HttpClient client, @Nullable String user) throws IOException, InterruptedException {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"events/stream\",\"params\":{"
				+ EventsStreamTests.ALERTS + "," + McpTestClient.META_2026 + "}}";
		SseStream stream = new SseStream(
				client.send(request(body, "events/stream", user), HttpResponse.BodyHandlers.ofInputStream()));
		assertThat(stream.response().statusCode()).isEqualTo(200);
		EventsStreamTests.params(stream, EventsWire.ACTIVE);
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
