package io.github.mcpsubscriptions.server;

import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import io.github.mcpsubscriptions.test.TestUsers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Abuse limits per principal over a real port: sessions, subscriptions (over a
 * principal's sessions and listen streams) and listen streams, each on top of the
 * server-wide limit, answered like that limit (same status, {@code Retry-After}, JSON-RPC
 * {@code -32000} naming the property in {@code data.limit}) and counted in
 * {@code mcp.limits.refused{limit=…}}. One principal at its limit does not limit another,
 * and anonymous callers are not counted per principal.
 */
class PrincipalLimitsTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private static final String ITEMS = "{\"resourceSubscriptions\":[\"l://items\"]}";

	private ConfigurableApplicationContext context;

	private McpTestClient client;

	@AfterEach
	void close() {
		if (this.context != null && this.context.isActive()) {
			this.context.close();
		}
	}

	private void start(String... properties) {
		String[] args = new String[properties.length + 2];
		args[0] = "--server.port=0";
		// A stream the client closed is noticed at the next write.
		args[1] = "--mcp.endpoint.heartbeat-interval=100ms";
		for (int i = 0; i < properties.length; i++) {
			args[i + 2] = "--" + properties[i];
		}
		this.context = new SpringApplication(McpTestApplication.class, ListenTests.Resources.class, TestUsers.class)
			.run(args);
		this.client = new McpTestClient(((WebServerApplicationContext) this.context).getWebServer().getPort());
	}

	@Test
	void sessionsPerPrincipalAreLimitedLikeTheServersSessions() throws Exception {
		start("mcp.sessions.max-per-principal=2");
		String first = initialize("alice");
		initialize("alice");
		HttpResponse<String> refused = this.client.post(this.client.initializeBody("2025-11-25"), "X-Test-User",
				"alice");
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("30");
		assertLimitError(json(refused.body()).get("error"), "mcp.sessions.max-per-principal", 2);
		assertThat(refusals("mcp.sessions.max-per-principal")).isEqualTo(1.0);
		// Another principal, and anonymous callers, are not held back by alice's
		// sessions.
		initialize("bob");
		for (int i = 0; i < 3; i++) {
			initialize(null);
		}
		// Ending one of hers makes room.
		assertThat(this.client
			.send(this.client.postRequest("{}")
				.DELETE()
				.header("Mcp-Session-Id", first)
				.header("X-Test-User", "alice")
				.build())
			.statusCode()).isEqualTo(204);
		initialize("alice");
		assertThat(refusals("mcp.sessions.max")).isZero();
	}

	@Test
	void subscriptionsPerPrincipalCountOverItsSessionsAndListenStreams() throws Exception {
		start("mcp.subscriptions.max-per-principal=3");
		String one = initialize("alice");
		String two = initialize("alice");
		assertSubscribed(one, "alice", "l://items/1");
		assertSubscribed(one, "alice", "l://items/2");
		assertSubscribed(two, "alice", "l://items/3");
		// Subscribing again to what it holds adds nothing, so it is not refused.
		assertSubscribed(two, "alice", "l://items/3");
		JsonNode refused = subscribe(two, "alice", "l://items/4");
		assertLimitError(refused.get("error"), "mcp.subscriptions.max-per-principal", 3);
		// A listen stream of hers counts too, and is refused like a listen past a limit.
		HttpResponse<String> listen = this.client.send(this.client
			.statelessRequest("subscriptions/listen", "\"notifications\":" + ITEMS, "X-Test-User", "alice")
			.build());
		assertThat(listen.statusCode()).as(listen.body()).isEqualTo(503);
		assertThat(listen.headers().firstValue("Retry-After")).hasValue("30");
		assertLimitError(json(listen.body()).get("error"), "mcp.subscriptions.max-per-principal", 3);
		assertThat(refusals("mcp.subscriptions.max-per-principal")).isEqualTo(2.0);
		// Others are not limited by her.
		assertSubscribed(initialize("bob"), "bob", "l://items/4");
		String anonymous = initialize(null);
		for (int i = 1; i <= 4; i++) {
			assertSubscribed(anonymous, null, "l://items/" + i);
		}
		// Unsubscribing makes room, for a listen stream as for a session.
		assertThat(call(one, "alice", "resources/unsubscribe", "{\"uri\":\"l://items/1\"}").get("result")).isNotNull();
		try (SseStream stream = this.client.listenWithHeaders(ITEMS, "X-Test-User", "alice")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			assertThat(stream.nextMessage(WAIT)).isNotNull();
			assertLimitError(subscribe(one, "alice", "l://items/9").get("error"), "mcp.subscriptions.max-per-principal",
					3);
		}
		// The stream closed: its subscription no longer counts.
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(subscribe(one, "alice", "l://items/9").get("result")).isNotNull());
	}

	@Test
	void listenStreamsPerPrincipalAreLimitedLikeTheServersStreams() throws Exception {
		start("mcp.listen.max-streams-per-principal=2");
		ListenManager listens = this.context.getBean(ListenManager.class);
		try (SseStream first = openListen("alice"); SseStream second = openListen("alice")) {
			HttpResponse<String> refused = this.client.send(this.client
				.statelessRequest("subscriptions/listen", "\"notifications\":" + ITEMS, "X-Test-User", "alice")
				.build());
			assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
			assertThat(refused.headers().firstValue("Retry-After")).hasValue("30");
			JsonNode body = json(refused.body());
			assertThat(body.get("id").isIntegralNumber()).as("the id is echoed").isTrue();
			assertLimitError(body.get("error"), "mcp.listen.max-streams-per-principal", 2);
			assertThat(refusals("mcp.listen.max-streams-per-principal")).isEqualTo(1.0);
			assertThat(this.context.getBean(MeterRegistry.class)
				.get("mcp.listen.refused")
				.tag("reason", "limit")
				.functionCounter()
				.count()).isEqualTo(1.0);
			try (SseStream bob = openListen("bob");
					SseStream anonymous = openListen(null);
					SseStream anonymousAgain = openListen(null);
					SseStream anonymousThird = openListen(null)) {
				assertThat(listens.getStreamCount("alice")).isEqualTo(2);
			}
			second.close();
			await().atMost(WAIT).until(() -> listens.getStreamCount("alice") == 1);
			try (SseStream again = openListen("alice")) {
				assertThat(listens.getStreamCount("alice")).isEqualTo(2);
			}
		}
		await().atMost(WAIT).until(() -> listens.getStreamCount("alice") == 0 && listens.getOpenStreamCount() == 0);
	}

	@Test
	void theLimitsAreOffByDefault() throws Exception {
		start();
		for (int i = 0; i < 5; i++) {
			assertSubscribed(initialize("alice"), "alice", "l://items");
		}
		try (SseStream one = openListen("alice");
				SseStream two = openListen("alice");
				SseStream three = openListen("alice")) {
			assertThat(this.context.getBean(ListenManager.class).getStreamCount("alice")).as("nothing counted")
				.isZero();
		}
		for (String limit : LimitStats.LIMITS) {
			assertThat(refusals(limit)).as(limit).isZero();
		}
	}

	private SseStream openListen(String user) throws Exception {
		SseStream stream = (user != null) ? this.client.listenWithHeaders(ITEMS, "X-Test-User", user)
				: this.client.listen(ITEMS);
		assertThat(stream.response().statusCode()).as(user + "'s listen").isEqualTo(200);
		assertThat(stream.nextMessage(WAIT)).as("the acknowledgement").isNotNull();
		return stream;
	}

	private static void assertLimitError(JsonNode error, String property, int value) {
		assertThat(error.get("code").intValue()).isEqualTo(-32000);
		assertThat(error.get("message").stringValue()).contains(property);
		assertThat(error.get("data").get("limit").stringValue()).isEqualTo(property);
		assertThat(error.get("data").get("value").intValue()).isEqualTo(value);
	}

	private String initialize(String user) throws Exception {
		HttpResponse<String> response = (user != null)
				? this.client.post(this.client.initializeBody("2025-11-25"), "X-Test-User", user)
				: this.client.post(this.client.initializeBody("2025-11-25"));
		assertThat(response.statusCode()).as(user + ": " + response.body()).isEqualTo(200);
		return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
	}

	private void assertSubscribed(String session, String user, String uri) throws Exception {
		JsonNode answer = subscribe(session, user, uri);
		assertThat(answer.get("result")).as(answer.toString()).isNotNull();
	}

	private JsonNode subscribe(String session, String user, String uri) throws Exception {
		return call(session, user, "resources/subscribe", "{\"uri\":\"" + uri + "\"}");
	}

	private JsonNode call(String session, String user, String method, String params) throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
		HttpResponse<String> response = (user != null)
				? this.client.post(body, "Mcp-Session-Id", session, "X-Test-User", user)
				: this.client.post(body, "Mcp-Session-Id", session);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json(response.body());
	}

	private double refusals(String limit) {
		return this.context.getBean(MeterRegistry.class)
			.get("mcp.limits.refused")
			.tag("limit", limit)
			.functionCounter()
			.count();
	}

}
