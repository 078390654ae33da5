package io.github.mcpsubscriptions.events;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.cluster.RedisEventStore;
import io.github.mcpsubscriptions.cluster.RedisTestSupport;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
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
 * The event log of a cluster (the real Redis, a key prefix of this test's): one log that
 * every node appends to and reads, so that a cursor taken on one node resumes on another,
 * and on any node after a restart, with the same event ids; a cursor behind what is
 * retained is truncated there too. A push stream on one node gets what any node
 * publishes.
 */
class EventsClusterTests {

	private static final String PRODUCTS = "\"name\":\"catalog.product.changed\"";

	private final RedisTestSupport redis = new RedisTestSupport(6);

	private final List<ConfigurableApplicationContext> nodes = new ArrayList<>();

	@AfterEach
	void close() {
		this.nodes.forEach(ConfigurableApplicationContext::close);
		this.redis.close();
	}

	@Test
	void aCursorTakenOnOneNodeResumesOnAnotherWithTheSameEventIds() throws Exception {
		ConfigurableApplicationContext a = start("a");
		ConfigurableApplicationContext b = start("b");
		assertThat(a.getBean(EventLog.class)).isInstanceOf(StoredEventLog.class);
		assertThat(a.getBean(McpEventStore.class)).isInstanceOf(RedisEventStore.class);
		String cursor = poll(a, "\"arguments\":{\"minPrice\":50}").get("cursor").stringValue();
		publish(a, 1, 10);
		publish(b, 2, 60);
		publish(a, 3, 70);
		publish(b, 4, 40);
		publish(a, 5, 80);

		JsonNode onB = poll(b, "\"arguments\":{\"minPrice\":50},\"cursor\":\"" + cursor + "\"");
		assertThat(ids(onB)).containsExactly(2L, 3L, 5L);
		assertThat(onB.get("truncated").booleanValue()).isFalse();
		assertThat(onB.get("events").get(0).get("data").toString())
			.isEqualTo("{\"id\":2,\"name\":\"product 2\",\"price\":60.0,\"change\":\"updated\"}");
		JsonNode onA = poll(a, "\"arguments\":{\"minPrice\":50},\"cursor\":\"" + cursor + "\"");
		assertThat(onA.get("events")).as("the same events, ids and cursor on every node").isEqualTo(onB.get("events"));
		assertThat(onA.get("cursor")).isEqualTo(onB.get("cursor"));

		// Resumed on the other node: only what came after.
		publish(b, 6, 90);
		JsonNode next = poll(a,
				"\"arguments\":{\"minPrice\":50},\"cursor\":\"" + onB.get("cursor").stringValue() + "\"");
		assertThat(ids(next)).containsExactly(6L);
	}

	@Test
	void aCursorResumesAfterItsNodeRestartedAndGetsWhatItMissed() throws Exception {
		ConfigurableApplicationContext a = start("a");
		ConfigurableApplicationContext b = start("b");
		String cursor = poll(a, "\"arguments\":{}").get("cursor").stringValue();
		publish(a, 1, 10);
		publish(a, 2, 20);
		JsonNode first = poll(a, "\"arguments\":{},\"cursor\":\"" + cursor + "\"");
		assertThat(ids(first)).containsExactly(1L, 2L);
		a.close();
		// Missed while the node was gone.
		publish(b, 3, 30);
		publish(b, 4, 40);
		b.close();

		ConfigurableApplicationContext restarted = start("a");
		JsonNode missed = poll(restarted, "\"arguments\":{},\"cursor\":\"" + first.get("cursor").stringValue() + "\"");
		assertThat(ids(missed)).containsExactly(3L, 4L);
		assertThat(missed.get("truncated").booleanValue()).isFalse();
		// The ids of what was delivered before the restart are the same after it.
		JsonNode again = poll(restarted, "\"arguments\":{},\"cursor\":\"" + cursor + "\"");
		assertThat(again.get("events").get(0).get("eventId")).isEqualTo(first.get("events").get(0).get("eventId"));
	}

	@Test
	void aCursorBehindWhatTheSharedLogRetainsIsTruncatedWithAFreshCursor() throws Exception {
		ConfigurableApplicationContext a = start("a", "mcp.events.retention-size=3");
		ConfigurableApplicationContext b = start("b", "mcp.events.retention-size=3");
		String cursor = poll(a, "\"arguments\":{}").get("cursor").stringValue();
		for (int i = 1; i <= 6; i++) {
			publish((i % 2 == 0) ? a : b, i, i);
		}
		JsonNode result = poll(b, "\"arguments\":{},\"cursor\":\"" + cursor + "\"");
		assertThat(result.get("truncated").booleanValue()).isTrue();
		assertThat(ids(result)).containsExactly(4L, 5L, 6L);
		JsonNode resumed = poll(a, "\"arguments\":{},\"cursor\":\"" + result.get("cursor").stringValue() + "\"");
		assertThat(resumed.get("truncated").booleanValue()).isFalse();
		assertThat(ids(resumed)).isEmpty();
	}

	@Test
	void aCursorOfALogRedisLostIsTruncated() throws Exception {
		ConfigurableApplicationContext a = start("a");
		String cursor = poll(a, "\"arguments\":{}").get("cursor").stringValue();
		publish(a, 1, 10);
		publish(a, 2, 20);
		String later = poll(a, "\"arguments\":{},\"cursor\":\"" + cursor + "\"").get("cursor").stringValue();
		// Redis lost everything (a restart without persistence): positions start again,
		// under a new epoch, and the old cursors are known to be behind.
		this.redis.redis().delete(this.redis.keys());
		publish(a, 3, 30);
		JsonNode result = poll(a, "\"arguments\":{},\"cursor\":\"" + later + "\"");
		assertThat(result.get("truncated").booleanValue()).isTrue();
		assertThat(ids(result)).containsExactly(3L);
	}

	@Test
	void theRetentionAgeAndMaxAgeMsHoldInTheSharedLog() throws Exception {
		ConfigurableApplicationContext a = start("a", "mcp.events.retention-age=1s");
		String cursor = poll(a, "\"arguments\":{}").get("cursor").stringValue();
		publish(a, 1, 10);
		JsonNode fresh = poll(a, "\"arguments\":{},\"maxAgeMs\":60000,\"cursor\":\"" + cursor + "\"");
		assertThat(ids(fresh)).containsExactly(1L);
		assertThat(fresh.get("truncated").booleanValue()).isFalse();
		// Older than the retention: gone from the log, and the cursor before it is
		// behind.
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			JsonNode expired = poll(a, "\"arguments\":{},\"cursor\":\"" + cursor + "\"");
			assertThat(ids(expired)).isEmpty();
			assertThat(expired.get("truncated").booleanValue()).isTrue();
		});
		assertThat(this.redis.redis().opsForStream().size(this.redis.prefix() + "{events}")).isZero();
	}

	@Test
	void everyResourceChangeOfTheClusterIsOneResourceUpdatedEvent() throws Exception {
		ConfigurableApplicationContext a = start("a");
		ConfigurableApplicationContext b = start("b");
		String params = "\"name\":\"resource.updated\",\"arguments\":{\"uri\":\"c://items/{id}\"}";
		String cursor = result(a, params).get("cursor").stringValue();
		a.publishEvent(new ResourceChangedEvent("c://items/1"));
		b.publishEvent(new ResourceChangedEvent("c://items/2"));
		a.publishEvent(new ResourceChangedEvent("c://other/3"));
		b.publishEvent(new ResourceChangedEvent("c://items/4"));
		// Both nodes read every change; one event each, recorded by whichever came first.
		// Changes of two nodes are concurrent, so only one node's own order is kept.
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			JsonNode events = result(b, params + ",\"cursor\":\"" + cursor + "\"").get("events");
			List<String> uris = new ArrayList<>();
			events.forEach((event) -> uris.add(event.get("data").get("uri").stringValue()));
			assertThat(uris).containsExactlyInAnyOrder("c://items/1", "c://items/2", "c://items/4");
			assertThat(uris.indexOf("c://items/2")).isLessThan(uris.indexOf("c://items/4"));
		});
		assertThat(result(a, params + ",\"cursor\":\"" + cursor + "\"").get("events"))
			.isEqualTo(result(b, params + ",\"cursor\":\"" + cursor + "\"").get("events"));
	}

	@Test
	void aPushStreamOnOneNodeGetsWhatEveryNodePublishesAndIsToldWhenRedisLostTheLog() throws Exception {
		ConfigurableApplicationContext a = start("a");
		ConfigurableApplicationContext b = start("b", "mcp.events.push.scan-interval=20ms");
		McpTestClient client = new McpTestClient(((WebServerApplicationContext) b).getWebServer().getPort());
		String body = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"events/stream\",\"params\":{"
				+ EventsStreamTests.ALERTS + "," + McpTestClient.META_2026 + "}}";
		HttpRequest request = client.postRequest(body)
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", "events/stream")
			.build();
		try (SseStream stream = new SseStream(HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.build()
			.send(request, HttpResponse.BodyHandlers.ofInputStream()))) {
			assertThat(EventsStreamTests.params(stream, EventsWire.ACTIVE).get("truncated").booleanValue()).isFalse();
			a.publishEvent(new AlertRaised(1, "high"));
			b.publishEvent(new AlertRaised(2, "high"));
			assertThat(number(EventsStreamTests.params(stream, EventsWire.EVENT))).isEqualTo(1);
			assertThat(number(EventsStreamTests.params(stream, EventsWire.EVENT))).isEqualTo(2);
			// Redis lost everything: a new epoch, which the stream says it resumes in.
			this.redis.redis().delete(this.redis.keys());
			a.publishEvent(new AlertRaised(3, "high"));
			JsonNode gap = EventsStreamTests.params(stream, EventsWire.ACTIVE);
			assertThat(gap.get("truncated").booleanValue()).isTrue();
			assertThat(number(EventsStreamTests.params(stream, EventsWire.EVENT))).isEqualTo(3);
		}
	}

	private static int number(JsonNode event) {
		return event.get("data").get("number").intValue();
	}

	private ConfigurableApplicationContext start(String name, String... properties) {
		List<String> extra = new ArrayList<>(List.of("mcp.events.enabled=true", "mcp.cluster.node-name=" + name));
		extra.addAll(List.of(properties));
		ConfigurableApplicationContext node = new SpringApplication(EventsTestApplication.class)
			.run(this.redis.nodeArguments(extra.toArray(String[]::new)));
		this.nodes.add(node);
		return node;
	}

	private static void publish(ConfigurableApplicationContext node, long id, double price) {
		node.publishEvent(new ProductChanged(id, "product " + id, price, ProductChanged.Change.updated));
	}

	private static JsonNode poll(ConfigurableApplicationContext node, String params) throws Exception {
		return result(node, PRODUCTS + (params.isEmpty() ? "" : "," + params));
	}

	private static JsonNode result(ConfigurableApplicationContext node, String params) throws Exception {
		McpTestClient client = new McpTestClient(((WebServerApplicationContext) node).getWebServer().getPort());
		HttpResponse<String> response = client.stateless("events/poll", params);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode body = json(response.body());
		assertThat(body.has("result")).as(response.body()).isTrue();
		return body.get("result");
	}

	private static List<Long> ids(JsonNode result) {
		List<Long> ids = new ArrayList<>();
		result.get("events").forEach((event) -> ids.add(event.get("data").get("id").longValue()));
		return ids;
	}

}
