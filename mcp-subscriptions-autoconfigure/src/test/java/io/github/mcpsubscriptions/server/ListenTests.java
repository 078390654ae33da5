package io.github.mcpsubscriptions.server;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code subscriptions/listen} over a real port: acknowledgement first, tagging, list
 * changes, cancellation, graceful completion, limits, and both eras at once.
 */
class ListenTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private ConfigurableApplicationContext context;

	@AfterEach
	void close() {
		if (this.context != null && this.context.isActive()) {
			this.context.close();
		}
	}

	private McpTestClient start(String... properties) {
		String[] args = new String[properties.length + 1];
		args[0] = "--server.port=0";
		for (int i = 0; i < properties.length; i++) {
			args[i + 1] = "--" + properties[i];
		}
		this.context = new SpringApplication(McpTestApplication.class, Resources.class).run(args);
		return new McpTestClient(((WebServerApplicationContext) this.context).getWebServer().getPort());
	}

	@Test
	void acknowledgesHonouredFilterFirstThenTagsNotifications() throws Exception {
		McpTestClient client = start();
		try (SseStream stream = client.listen("{\"resourceSubscriptions\":[\"l://items/{id}\",\"l://items\","
				+ "\"nothing://here\",\"not a uri\"],\"toolsListChanged\":true}")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			assertThat(stream.response().headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
			JsonNode ack = json(stream.nextMessage(WAIT).data());
			assertThat(ack.get("method").stringValue()).isEqualTo("notifications/subscriptions/acknowledged");
			Object id = ack.get("params").get("_meta").get("io.modelcontextprotocol/subscriptionId").intValue();
			JsonNode honoured = ack.get("params").get("notifications");
			assertThat(honoured.get("resourceSubscriptions")).extracting(JsonNode::stringValue)
				.containsExactly("l://items/{id}", "l://items");
			assertThat(honoured.has("toolsListChanged")).as("no tools here").isFalse();
			assertThat(honoured.has("resourcesListChanged")).isFalse();

			publish("l://items/3");
			JsonNode first = json(stream.nextMessage(WAIT).data());
			JsonNode second = json(stream.nextMessage(WAIT).data());
			for (JsonNode notification : new JsonNode[] { first, second }) {
				assertThat(notification.get("method").stringValue()).isEqualTo("notifications/resources/updated");
				assertThat(notification.get("params").get("uri").stringValue()).isEqualTo("l://items/3");
				assertThat(notification.get("params")
					.get("_meta")
					.get("io.modelcontextprotocol/subscriptionId")
					.intValue()).isEqualTo(id);
			}
			assertThat(Set.of(first.get("params").get("subscribedUri").stringValue(),
					second.get("params").get("subscribedUri").stringValue()))
				.containsExactlyInAnyOrder("l://items/{id}", "l://items");
		}
	}

	@Test
	void listChangesOnlyWhenAsked() throws Exception {
		McpTestClient client = start();
		try (SseStream asking = client.listen("{\"resourcesListChanged\":true}");
				SseStream notAsking = client.listen("{\"resourceSubscriptions\":[\"l://items\"]}")) {
			assertThat(json(asking.nextMessage(WAIT).data()).get("params")
				.get("notifications")
				.get("resourcesListChanged")
				.booleanValue()).isTrue();
			assertThat(notAsking.nextMessage(WAIT)).isNotNull();
			this.context.getBean(ResourceRegistry.class)
				.register(ResourceDefinition.builder("l://new", (request) -> "new").build());
			JsonNode changed = json(asking.nextMessage(WAIT).data());
			assertThat(changed.get("method").stringValue()).isEqualTo("notifications/resources/list_changed");
			assertThat(changed.get("params").get("_meta").has("io.modelcontextprotocol/subscriptionId")).isTrue();
			assertThat(notAsking.nextMessage(Duration.ofMillis(500))).isNull();
		}
	}

	@Test
	void closingTheStreamCancelsTheSubscription() throws Exception {
		McpTestClient client = start("mcp.endpoint.heartbeat-interval=100ms");
		NotificationEngine dispatcher = this.context.getBean(NotificationEngine.class);
		ListenManager listens = this.context.getBean(ListenManager.class);
		SseStream stream = client.listen("{\"resourceSubscriptions\":[\"l://items\"]}");
		assertThat(stream.nextMessage(WAIT)).isNotNull();
		assertThat(listens.getOpenStreamCount()).isOne();
		assertThat(dispatcher.getIndex().size()).isOne();
		stream.close();
		// The second heartbeat finds the client gone.
		await().atMost(WAIT).until(() -> listens.getOpenStreamCount() == 0);
		assertThat(listens.getStats().getEnded(ListenStats.End.CLIENT)).isOne();
		assertThat(listens.getStats().getEnded(ListenStats.End.SLOW_CONSUMER)).isZero();
		assertThat(dispatcher.getIndex().size()).isZero();
		assertThat(dispatcher.getSubscribers()).isEmpty();
	}

	@Test
	void maxDurationCompletesGracefully() throws Exception {
		McpTestClient client = start("mcp.listen.max-duration=300ms");
		try (SseStream stream = client.listen("{\"resourceSubscriptions\":[\"l://items\"]}")) {
			JsonNode ack = json(stream.nextMessage(WAIT).data());
			JsonNode completion = json(stream.nextMessage(WAIT).data());
			assertThat(completion.get("id").intValue())
				.isEqualTo(ack.get("params").get("_meta").get("io.modelcontextprotocol/subscriptionId").intValue());
			assertThat(completion.get("result").get("resultType").stringValue()).isEqualTo("complete");
			assertThat(completion.get("result").get("_meta").has("io.modelcontextprotocol/subscriptionId")).isTrue();
			assertThat(stream.awaitEnd(WAIT)).as("the stream closes after the result").isTrue();
			ListenStats stats = this.context.getBean(ListenManager.class).getStats();
			await().atMost(WAIT).until(() -> stats.getEnded(ListenStats.End.MAX_DURATION) == 1);
			assertThat(stats.getEnded(ListenStats.End.CLIENT)).isZero();
		}
	}

	@Test
	void shutdownCompletesGracefully() throws Exception {
		McpTestClient client = start();
		ListenStats stats = this.context.getBean(ListenManager.class).getStats();
		try (SseStream stream = client.listen("{\"resourceSubscriptions\":[\"l://items\"]}")) {
			assertThat(stream.nextMessage(WAIT)).isNotNull();
			this.context.close();
			SseEvent completion = stream.nextMessage(WAIT);
			assertThat(completion).isNotNull();
			assertThat(json(completion.data()).get("result").get("resultType").stringValue()).isEqualTo("complete");
			assertThat(stream.awaitEnd(WAIT)).isTrue();
			await().atMost(WAIT).until(() -> stats.getEnded(ListenStats.End.SHUTDOWN) == 1);
		}
	}

	@Test
	void streamLimitIsNamed() throws Exception {
		McpTestClient client = start("mcp.listen.max-streams=1");
		try (SseStream first = client.listen("{\"resourceSubscriptions\":[\"l://items\"]}")) {
			assertThat(first.nextMessage(WAIT)).isNotNull();
			var refused = client.stateless("subscriptions/listen", "\"notifications\":{}");
			assertThat(refused.statusCode()).isEqualTo(503);
			assertThat(refused.headers().firstValue("Retry-After")).isPresent();
			JsonNode error = json(refused.body()).get("error");
			assertThat(error.get("code").intValue()).isEqualTo(-32000);
			assertThat(error.get("message").stringValue()).contains("mcp.listen.max-streams");
			assertThat(this.context.getBean(ListenManager.class).getStats().getRefused(ListenStats.Refusal.LIMIT))
				.isOne();
		}
	}

	@Test
	void subscriptionLimitIsNamed() throws Exception {
		McpTestClient client = start("mcp.subscriptions.max-per-session=1");
		var refused = client.stateless("subscriptions/listen",
				"\"notifications\":{\"resourceSubscriptions\":[\"l://items\",\"l://items/1\"]}");
		assertThat(json(refused.body()).get("error").get("message").stringValue())
			.contains("mcp.subscriptions.max-per-session");
		assertThat(this.context.getBean(ListenManager.class).getStats().getRefused(ListenStats.Refusal.LIMIT)).isOne();
	}

	@Test
	void badFilterIsInvalidParams() throws Exception {
		McpTestClient client = start();
		for (String params : new String[] { "", "\"notifications\":[]",
				"\"notifications\":{\"resourceSubscriptions\":\"x\"}",
				"\"notifications\":{\"resourceSubscriptions\":[1]}",
				"\"notifications\":{\"resourcesListChanged\":\"yes\"}" }) {
			var response = client.stateless("subscriptions/listen", params);
			assertThat(json(response.body()).get("error").get("code").intValue()).as(params).isEqualTo(-32602);
		}
	}

	@Test
	void aClientWithoutCorrelationGetsOneNotificationPerChangeNamingTheMostSpecificSubscription() throws Exception {
		McpTestClient client = start();
		JsonNode capabilities = json(client.stateless("server/discover", "").body()).get("result").get("capabilities");
		assertThat(capabilities.get("extensions").get("io.github.mcpsubscriptions/correlation").isObject()).isTrue();
		try (SseStream stream = client
			.listenUncorrelated("{\"resourceSubscriptions\":[\"l://items\",\"l://items/{id}\"]}")) {
			assertThat(stream.nextMessage(WAIT)).as("acknowledged").isNotNull();
			publish("l://items/3");
			publish("l://items/4");
			JsonNode first = json(stream.nextMessage(WAIT).data()).get("params");
			assertThat(first.get("uri").stringValue()).isEqualTo("l://items/3");
			assertThat(first.get("subscribedUri").stringValue()).isEqualTo("l://items/{id}");
			JsonNode second = json(stream.nextMessage(WAIT).data()).get("params");
			assertThat(second.get("uri").stringValue()).as("the change to 3 arrived once").isEqualTo("l://items/4");
		}
	}

	@Test
	void correlationModeNeverMergesForEveryClientAndIsNotAdvertised() throws Exception {
		assertMergedWithoutSubscribedUri(start("mcp.subscriptions.correlation-mode=never"));
	}

	private void assertMergedWithoutSubscribedUri(McpTestClient client) throws Exception {
		JsonNode capabilities = json(client.stateless("server/discover", "").body()).get("result").get("capabilities");
		assertThat(capabilities.has("extensions")).isFalse();
		try (SseStream stream = client.listen("{\"resourceSubscriptions\":[\"l://items\",\"l://items/{id}\"]}")) {
			assertThat(stream.nextMessage(WAIT)).as("acknowledged").isNotNull();
			publish("l://items/3");
			publish("l://items/4");
			JsonNode first = json(stream.nextMessage(WAIT).data()).get("params");
			assertThat(first.get("uri").stringValue()).isEqualTo("l://items/3");
			assertThat(first.has("subscribedUri")).isFalse();
			JsonNode second = json(stream.nextMessage(WAIT).data()).get("params");
			assertThat(second.get("uri").stringValue()).as("the change to 3 arrived once").isEqualTo("l://items/4");
		}
	}

	@Test
	void disabledListenIsNotFoundAndNotAdvertised() throws Exception {
		McpTestClient client = start("mcp.listen.enabled=false");
		var response = client.stateless("subscriptions/listen", "\"notifications\":{}");
		assertThat(response.statusCode()).isEqualTo(404);
		JsonNode capabilities = json(client.stateless("server/discover", "").body()).get("result").get("capabilities");
		assertThat(capabilities.get("resources").get("subscribe").booleanValue()).isFalse();
		assertThat(this.context.getBean(ListenManager.class).getStats().getRefused(ListenStats.Refusal.DISABLED))
			.isOne();
	}

	@Test
	void completeImmediatelyAcknowledgesNothingAndCompletesAtOnce() throws Exception {
		McpTestClient client = start("mcp.listen.mode=complete-immediately");
		ListenManager listens = this.context.getBean(ListenManager.class);
		try (SseStream stream = client
			.listen("{\"resourceSubscriptions\":[\"l://items\"],\"resourcesListChanged\":true}")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			JsonNode ack = json(stream.nextMessage(WAIT).data());
			assertThat(ack.get("method").stringValue()).isEqualTo("notifications/subscriptions/acknowledged");
			assertThat(ack.get("params").get("notifications").isEmpty()).as("nothing is honoured").isTrue();
			JsonNode completion = json(stream.nextMessage(WAIT).data());
			assertThat(completion.get("id").intValue())
				.isEqualTo(ack.get("params").get("_meta").get("io.modelcontextprotocol/subscriptionId").intValue());
			assertThat(completion.get("result").get("resultType").stringValue()).isEqualTo("complete");
			assertThat(stream.awaitEnd(WAIT)).as("the response ends at once").isTrue();
		}
		assertThat(listens.getOpenStreamCount()).isZero();
		assertThat(this.context.getBean(NotificationEngine.class).getIndex().size()).isZero();
		JsonNode resources = json(client.stateless("server/discover", "").body()).get("result")
			.get("capabilities")
			.get("resources");
		assertThat(resources.get("subscribe").booleanValue()).as("listening is not offered").isFalse();
		assertThat(resources.get("listChanged").booleanValue()).isFalse();
		// Still validated like any listen request.
		assertThat(json(client.stateless("subscriptions/listen", "\"notifications\":[]").body()).get("error")
			.get("code")
			.intValue()).isEqualTo(-32602);
	}

	@Test
	void everyAdvertisedCapabilityIsServedByAListenStream() throws Exception {
		McpTestClient client = start();
		JsonNode capabilities = json(client.stateless("server/discover", "").body()).get("result").get("capabilities");
		// Notifications a listen filter can ask for, by the capability that advertises
		// them.
		Map<String, String> filters = Map.of("resources", "resourcesListChanged", "tools", "toolsListChanged",
				"prompts", "promptsListChanged");
		StringBuilder filter = new StringBuilder("{\"resourceSubscriptions\":[\"l://items\"]");
		filters.values().forEach((name) -> filter.append(",\"").append(name).append("\":true"));
		try (SseStream stream = client.listen(filter.append('}').toString())) {
			JsonNode honoured = json(stream.nextMessage(WAIT).data()).get("params").get("notifications");
			for (Map.Entry<String, String> entry : filters.entrySet()) {
				JsonNode capability = capabilities.get(entry.getKey());
				boolean advertised = capability != null && capability.path("listChanged").asBoolean(false);
				assertThat(honoured.has(entry.getValue()))
					.as("%s.listChanged advertised = %s honoured", entry.getKey(), entry.getValue())
					.isEqualTo(advertised);
			}
			assertThat(capabilities.get("resources").get("subscribe").booleanValue()).isTrue();
			assertThat(honoured.get("resourceSubscriptions")).extracting(JsonNode::stringValue)
				.containsExactly("l://items");
		}
	}

	@Test
	void healthReportsHowCloseTheNodeIsToMaxStreams() throws Exception {
		McpTestClient client = start("mcp.listen.max-streams=4");
		HealthIndicator health = this.context.getBean("mcpHealthIndicator", HealthIndicator.class);
		try (SseStream stream = client.listen("{\"resourceSubscriptions\":[\"l://items\"]}")) {
			assertThat(stream.nextMessage(WAIT)).isNotNull();
			Map<String, Object> details = health.health().getDetails();
			assertThat(details).containsEntry("listenStreams", 1)
				.containsEntry("maxListenStreams", 4)
				.containsEntry("listenStreamsUsed", "25%");
		}
	}

	@Test
	void bothErasReceiveTheSameChange() throws Exception {
		McpTestClient client = start();
		String session = client.initialize();
		assertThat(json(client.call(session, "resources/subscribe", "{\"uri\":\"l://items/5\"}").body()).has("error"))
			.isFalse();
		try (SseStream legacy = client.openStream(session);
				SseStream modern = client.listen("{\"resourceSubscriptions\":[\"l://items/5\"]}")) {
			assertThat(modern.nextMessage(WAIT)).isNotNull();
			publish("l://items/5");
			JsonNode old = json(legacy.nextMessage(WAIT).data()).get("params");
			JsonNode now = json(modern.nextMessage(WAIT).data()).get("params");
			assertThat(old.get("uri").stringValue()).isEqualTo("l://items/5");
			assertThat(now.get("uri").stringValue()).isEqualTo("l://items/5");
			assertThat(old.has("_meta")).as("no 2026 tag in the 2025 era").isFalse();
			assertThat(now.get("_meta").has("io.modelcontextprotocol/subscriptionId")).isTrue();
		}
	}

	private void publish(String uri) {
		this.context.publishEvent(new ResourceChangedEvent(uri, Map.of()));
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Items items() {
			return new Items();
		}

	}

	static class Items {

		@McpResource(uri = "l://items")
		String all() {
			return "[]";
		}

		@McpResource(uri = "l://items/{id}")
		String item(String id) {
			return id;
		}

	}

}
