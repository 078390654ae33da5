package io.github.mcpsubscriptions.server;

import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.subscription.SubscriptionFilter;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Subscriptions end to end over a real port and live SSE streams: coverage, correlation,
 * errors, limits, policies, and the end of notifications after unsubscribe or DELETE.
 */
@SpringBootTest(classes = { McpTestApplication.class, McpSubscriptionsTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "mcp.subscriptions.max-per-session=5" })
class McpSubscriptionsTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private NotificationEngine dispatcher;

	private McpTestClient client;

	private String session;

	@BeforeEach
	void setUp() throws Exception {
		this.client = new McpTestClient(this.port);
		this.session = this.client.initialize();
	}

	@Test
	void capabilitiesAdvertiseSubscribe() throws Exception {
		JsonNode result = json(this.client.post(this.client.initializeBody("2025-11-25")).body()).get("result");
		assertThat(result.get("capabilities").get("resources").get("subscribe").booleanValue()).isTrue();
		assertThat(result.get("capabilities").has("tools")).as("no tools here").isFalse();
		assertThat(json(this.client.call(this.session, "tools/list", null).body()).get("error").get("code").intValue())
			.as("no tools capability, no tools/list")
			.isEqualTo(-32601);
	}

	@Test
	void exactSubscriptionIsNotifiedWithCorrelationAndAttributes() throws Exception {
		subscribe("catalog://products/7");
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/7", Map.of("version", 3)));
			JsonNode params = nextNotification(stream);
			assertThat(params.get("uri").stringValue()).isEqualTo("catalog://products/7");
			assertThat(params.get("subscribedUri").stringValue()).isEqualTo("catalog://products/7");
			assertThat(params.get("_meta").get("version").intValue()).isEqualTo(3);
		}
	}

	@Test
	void overlappingSubscriptionsGetOneNotificationEach() throws Exception {
		subscribe("catalog://products");
		subscribe("catalog://products/{id}");
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/2"));
			JsonNode first = nextNotification(stream);
			JsonNode second = nextNotification(stream);
			assertThat(first.get("uri").stringValue()).isEqualTo("catalog://products/2");
			assertThat(second.get("uri").stringValue()).isEqualTo("catalog://products/2");
			assertThat(Set.of(first.get("subscribedUri").stringValue(), second.get("subscribedUri").stringValue()))
				.containsExactlyInAnyOrder("catalog://products", "catalog://products/{id}");
			assertNoMoreNotifications(stream);
		}
	}

	@Test
	void capabilitiesAdvertiseCorrelation() throws Exception {
		JsonNode result = json(this.client.post(this.client.initializeBody("2025-11-25")).body()).get("result");
		assertThat(
				result.get("capabilities").get("experimental").get("io.github.mcpsubscriptions/correlation").isObject())
			.isTrue();
	}

	@Test
	void aClientWithoutCorrelationGetsOneNotificationPerChangeNamingTheMostSpecificSubscription() throws Exception {
		this.session = this.client.initialize("2025-11-25", "{}");
		subscribe("catalog://products");
		subscribe("catalog://products/{id}");
		subscribe("catalog://products/2");
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/2"));
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/5"));
			JsonNode first = nextNotification(stream);
			assertThat(first.get("uri").stringValue()).isEqualTo("catalog://products/2");
			assertThat(first.get("subscribedUri").stringValue()).isEqualTo("catalog://products/2");
			JsonNode second = nextNotification(stream);
			assertThat(second.get("uri").stringValue()).as("the change to 2 arrived once")
				.isEqualTo("catalog://products/5");
			assertThat(second.get("subscribedUri").stringValue()).isEqualTo("catalog://products/{id}");
		}
	}

	@Test
	void collectionSubscriptionSeesMembersButNotLookalikes() throws Exception {
		subscribe("catalog://products");
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products-archive/1"));
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/9"));
			JsonNode params = nextNotification(stream);
			assertThat(params.get("uri").stringValue()).isEqualTo("catalog://products/9");
			assertThat(params.get("subscribedUri").stringValue()).isEqualTo("catalog://products");
		}
	}

	@Test
	void templateSubscriptionSeesEveryInstance() throws Exception {
		subscribe("catalog://products/{id}");
		try (SseStream stream = this.client.openStream(this.session)) {
			for (int id = 1; id <= 3; id++) {
				this.events.publishEvent(new ResourceChangedEvent("catalog://products/" + id));
			}
			for (int id = 1; id <= 3; id++) {
				assertThat(nextNotification(stream).get("uri").stringValue()).isEqualTo("catalog://products/" + id);
			}
		}
	}

	@Test
	void patternSubscriptionSeesMatchingFilesOnly() throws Exception {
		subscribe("logs://app/?pattern=*.error.log");
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceChangedEvent("logs://app/a.info.log"));
			this.events.publishEvent(new ResourceChangedEvent("logs://app/b.error.log"));
			JsonNode params = nextNotification(stream);
			assertThat(params.get("uri").stringValue()).isEqualTo("logs://app/b.error.log");
			assertThat(params.get("subscribedUri").stringValue()).isEqualTo("logs://app/?pattern=*.error.log");
		}
	}

	@Test
	void aPolicyThatOnlyRefusesSubscribingAlsoKeepsCoveringSubscriptionsFromDeliveringIt() throws Exception {
		// The policy overrides canSubscribe only: canReceive must follow it for the
		// changed URI.
		subscribe("catalog://products");
		subscribe("catalog://products/{id}");
		subscribe("logs://app/?pattern=*.log");
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/secret-3"));
			this.events.publishEvent(new ResourceChangedEvent("logs://app/secret.log"));
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/2"));
			this.events.publishEvent(new ResourceChangedEvent("logs://app/a.log"));
			List<String> delivered = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				JsonNode params = nextNotification(stream);
				delivered.add(params.get("uri").stringValue() + " via " + params.get("subscribedUri").stringValue());
			}
			assertThat(delivered).containsExactlyInAnyOrder("catalog://products/2 via catalog://products",
					"catalog://products/2 via catalog://products/{id}",
					"logs://app/a.log via logs://app/?pattern=*.log");
			assertNoMoreNotifications(stream);
		}
	}

	@Test
	void aCostlyPatternIsInvalidParams() throws Exception {
		int before = this.dispatcher.getIndex().size();
		assertError(call("resources/subscribe", "{\"uri\":\"logs://app/?pattern=" + "**/".repeat(2700) + "\"}"),
				-32602);
		assertThat(this.dispatcher.getIndex().size()).isEqualTo(before);
	}

	@Test
	void resubscribingIsIdempotent() throws Exception {
		subscribe("catalog://products/1");
		subscribe("catalog://products/1");
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/1"));
			assertThat(nextNotification(stream)).isNotNull();
			assertNoMoreNotifications(stream);
		}
	}

	@Test
	void notificationsWaitForTheStream() throws Exception {
		subscribe("catalog://products/4");
		this.events.publishEvent(new ResourceChangedEvent("catalog://products/4"));
		await().atMost(WAIT).until(() -> this.dispatcher.getBacklog() == 0);
		try (SseStream stream = this.client.openStream(this.session)) {
			assertThat(nextNotification(stream).get("uri").stringValue()).isEqualTo("catalog://products/4");
		}
	}

	@Test
	void nothingAfterUnsubscribe() throws Exception {
		subscribe("catalog://products/5");
		subscribe("catalog://products/6");
		try (SseStream stream = this.client.openStream(this.session)) {
			assertThat(result("resources/unsubscribe", "{\"uri\":\"catalog://products/5\"}").isEmpty()).isTrue();
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/5"));
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/6"));
			// Changes are dispatched in order: had 5 been told, it would come first.
			assertThat(nextNotification(stream).get("uri").stringValue()).isEqualTo("catalog://products/6");
		}
	}

	@Test
	void unsubscribeOfUnknownSubscriptionIsEmptyResult() throws Exception {
		assertThat(result("resources/unsubscribe", "{\"uri\":\"catalog://products/1\"}").isEmpty()).isTrue();
	}

	@Test
	void nothingAfterDelete() throws Exception {
		subscribe("catalog://products/8");
		int before = this.dispatcher.getIndex().size();
		try (SseStream stream = this.client.openStream(this.session)) {
			assertThat(this.client.delete(this.session).statusCode()).isEqualTo(204);
			assertThat(stream.awaitEnd(WAIT)).isTrue();
		}
		assertThat(this.dispatcher.getIndex().size()).isEqualTo(before - 1);
	}

	@Test
	void badSubscriptionParamsAreInvalidParams() throws Exception {
		assertError(call("resources/subscribe", "{}"), -32602);
		assertError(call("resources/subscribe", "{\"uri\":7}"), -32602);
		assertError(call("resources/subscribe", "{\"uri\":\"not a uri\"}"), -32602);
		assertError(call("resources/subscribe", "{\"uri\":\"catalog://products/{id\"}"), -32602);
		assertError(call("resources/subscribe", "{\"uri\":\"logs://app/?pattern=\"}"), -32602);
		assertError(call("resources/subscribe", "{\"uri\":\"catalog://" + "x".repeat(9000) + "\"}"), -32602);
		assertError(call("resources/unsubscribe", "{}"), -32602);
	}

	@Test
	void subscriptionCoveringNothingIsNotFound() throws Exception {
		JsonNode body = call("resources/subscribe", "{\"uri\":\"weather://city/paris\"}");
		assertError(body, -32002);
		assertThat(body.get("error").get("data").get("uri").stringValue()).isEqualTo("weather://city/paris");
		assertError(call("resources/subscribe", "{\"uri\":\"catalog://products-archive\"}"), -32002);
	}

	@Test
	void refusedSubscriptionLooksLikeNotFound() throws Exception {
		assertError(call("resources/subscribe", "{\"uri\":\"catalog://secret\"}"), -32002);
	}

	@Test
	void filterBeansDecidePerNotification() throws Exception {
		subscribe("catalog://products/3");
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/3", Map.of("internal", true)));
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/3", Map.of("version", 2)));
			assertThat(nextNotification(stream).get("_meta").get("version").intValue()).isEqualTo(2);
		}
	}

	@Test
	void perSessionLimitIsNamed() throws Exception {
		for (int id = 1; id <= 5; id++) {
			subscribe("catalog://products/" + id);
		}
		JsonNode body = call("resources/subscribe", "{\"uri\":\"catalog://products/6\"}");
		assertError(body, -32000);
		assertThat(body.get("error").get("message").stringValue()).contains("mcp.subscriptions.max-per-session");
		assertThat(body.get("error").get("data").get("value").intValue()).isEqualTo(5);
		// Re-subscribing an existing one is still fine at the limit.
		subscribe("catalog://products/1");
	}

	@Test
	void eventPublisherDoesNotWaitForSlowDelivery() throws Exception {
		subscribe("catalog://products/1");
		try (SseStream stream = this.client.openStream(this.session)) {
			for (int i = 0; i < 200; i++) {
				this.events.publishEvent(new ResourceChangedEvent("catalog://products/1", Map.of("version", i)));
			}
			// Coalescing may merge some (how many depends on timing); the last version
			// always
			// arrives, and nothing after it.
			SseEvent event;
			String last = null;
			while ((event = stream.nextMessage(WAIT)) != null) {
				last = event.data();
				if (last.contains("\"version\":199")) {
					break;
				}
			}
			assertThat(last).as("the last change is never lost").contains("\"version\":199");
			assertNoMoreNotifications(stream);
		}
	}

	private void subscribe(String uri) throws Exception {
		JsonNode body = call("resources/subscribe", "{\"uri\":\"" + uri + "\"}");
		assertThat(body.has("error")).as("subscribe %s: %s", uri, body).isFalse();
		assertThat(body.get("result").isEmpty()).isTrue();
	}

	private JsonNode call(String method, String params) throws Exception {
		return json(this.client.call(this.session, method, params).body());
	}

	private JsonNode result(String method, String params) throws Exception {
		return call(method, params).get("result");
	}

	private static void assertError(JsonNode body, int code) {
		assertThat(body.get("error").get("code").intValue()).as(body.toString()).isEqualTo(code);
	}

	private static JsonNode nextNotification(SseStream stream) throws InterruptedException {
		SseEvent event = stream.nextMessage(WAIT);
		assertThat(event).as("a notification arrives").isNotNull();
		assertThat(event.event()).as("named, for clients that require it").isEqualTo("message");
		JsonNode message = json(event.data());
		assertThat(message.get("method").stringValue()).isEqualTo("notifications/resources/updated");
		assertThat(message.has("id")).isFalse();
		return message.get("params");
	}

	private static void assertNoMoreNotifications(SseStream stream) throws InterruptedException {
		assertThat(stream.nextMessage(Duration.ofMillis(500))).isNull();
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		CatalogResources catalogResources() {
			return new CatalogResources();
		}

		@Bean
		ResourceAccessPolicy denySecrets() {
			return new ResourceAccessPolicy() {

				@Override
				public boolean canSubscribe(Principal principal, String subscribedUri) {
					return !subscribedUri.contains("secret");
				}

			};
		}

		@Bean
		SubscriptionFilter dropInternalChanges() {
			return (candidate) -> !candidate.attributes().containsKey("internal");
		}

	}

	static class CatalogResources {

		@McpResource(uri = "catalog://products")
		String products() {
			return "[]";
		}

		@McpResource(uri = "catalog://secret")
		String secret() {
			return "s";
		}

		@McpResource(uri = "catalog://products/{id}")
		String product(String id) {
			return id;
		}

		@McpResource(uri = "logs://app/{+file}")
		String log(String file) {
			return file;
		}

	}

}
