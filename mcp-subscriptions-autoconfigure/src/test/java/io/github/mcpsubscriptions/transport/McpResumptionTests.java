package io.github.mcpsubscriptions.transport;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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

/**
 * Event ids, priming, Last-Event-ID replay and resync over a real port.
 */
@SpringBootTest(classes = { McpTestApplication.class, McpResumptionTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.sessions.replay-log-size=4", "mcp.sessions.retry=1500ms",
				"mcp.endpoint.heartbeat-interval=400ms", "mcp.notifications.detached-outbox-capacity=3" })
class McpResumptionTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private static final String RESYNC_OF_ITEM_7 = "notifications/resources/updated r://items/7 for r://items/7";

	private static final String RESYNC_OF_THE_TEMPLATE = "notifications/resources/list_changed - for r://items/{id}";

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private NotificationEngine dispatcher;

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void newestClientsGetPrimingEventWithoutRetry() throws Exception {
		String session = subscribedSession("2025-11-25", "r://items/{id}");
		try (SseStream stream = this.client.openStream(session)) {
			SseEvent priming = stream.next(WAIT, (event) -> event.id() != null);
			assertThat(priming).isNotNull();
			assertThat(priming.data()).isEmpty();
			// mcp.sessions.retry is set, but it is sent only before the server ends a
			// stream.
			assertThat(priming.retry()).isNull();
			assertThat(priming.event()).isNull();
			publish("r://items/1");
			SseEvent message = stream.next(WAIT, (event) -> event.data() != null && !event.data().isEmpty());
			assertThat(message).isNotNull();
			assertThat(message.retry()).isNull();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "2025-06-18", "2025-03-26" })
	void olderClientsNeverGetEmptyDataEvents(String version) throws Exception {
		String session = subscribedSession(version, "r://items/{id}");
		try (SseStream stream = this.client.openStream(session)) {
			publish("r://items/1");
			SseEvent first = stream.next(WAIT, (event) -> event.data() != null);
			assertThat(first).isNotNull();
			assertThat(first.data()).isNotEmpty();
			assertThat(first.retry()).isNull();
			assertThat(first.id()).as("messages still carry ids").isNotNull();
		}
	}

	@Test
	void everyMessageHasUniqueId() throws Exception {
		String session = subscribedSession("2025-11-25", "r://items/{id}");
		try (SseStream stream = this.client.openStream(session)) {
			Set<String> ids = new HashSet<>();
			for (int i = 0; i < 6; i++) {
				publish("r://items/" + i);
			}
			for (int i = 0; i < 6; i++) {
				SseEvent event = stream.nextMessage(WAIT);
				assertThat(event).isNotNull();
				ids.add(event.id());
			}
			assertThat(ids).hasSize(6).doesNotContainNull();
		}
	}

	@Test
	void lastEventIdReplaysExactlyWhatFollowedThenContinuesLive() throws Exception {
		String session = subscribedSession("2025-11-25", "r://items/{id}");
		String lastSeen;
		try (SseStream stream = this.client.openStream(session)) {
			publish("r://items/1");
			publish("r://items/2");
			publish("r://items/3");
			assertThat(uriOf(stream.nextMessage(WAIT))).isEqualTo("r://items/1");
			SseEvent second = stream.nextMessage(WAIT);
			assertThat(uriOf(second)).isEqualTo("r://items/2");
			lastSeen = second.id();
			// The client leaves without reading item 3, whether or not it was written
			// yet:
			// either way it comes next, from the replay log or the outbox.
		}
		publish("r://items/4");
		try (SseStream resumed = this.client.openStream(session, "Last-Event-ID", lastSeen)) {
			SseEvent priming = resumed.next(WAIT, (event) -> event.id() != null);
			assertThat(priming.data()).isEmpty();
			assertThat(priming.id()).as("the priming event's own id").isNotEqualTo(lastSeen);
			assertThat(uriOf(resumed.nextMessage(WAIT))).isEqualTo("r://items/3");
			assertThat(uriOf(resumed.nextMessage(WAIT))).isEqualTo("r://items/4");
			publish("r://items/5");
			assertThat(uriOf(resumed.nextMessage(WAIT))).isEqualTo("r://items/5");
			assertThat(resumed.nextMessage(Duration.ofMillis(300))).as("nothing twice").isNull();
		}
	}

	@Test
	void primingEventsHaveTheirOwnIdsThatResumeFromWhereTheyStand() throws Exception {
		String session = subscribedSession("2025-11-25", "r://items/{id}");
		Set<String> ids = new HashSet<>();
		String message;
		try (SseStream stream = this.client.openStream(session)) {
			ids.add(stream.next(WAIT, (event) -> event.id() != null).id());
			publish("r://items/1");
			SseEvent first = stream.nextMessage(WAIT);
			assertThat(uriOf(first)).isEqualTo("r://items/1");
			message = first.id();
			assertThat(ids.add(message)).as("the message's id differs from the priming event's").isTrue();
		}
		String priming;
		try (SseStream resumed = this.client.openStream(session, "Last-Event-ID", message)) {
			SseEvent event = resumed.next(WAIT, (candidate) -> candidate.id() != null);
			assertThat(event.data()).isEmpty();
			priming = event.id();
			assertThat(ids.add(priming)).as("a priming event on resumption has an id of its own").isTrue();
			// The client leaves having seen only the priming event.
		}
		publish("r://items/2");
		try (SseStream resumed = this.client.openStream(session, "Last-Event-ID", priming)) {
			SseEvent event = resumed.next(WAIT, (candidate) -> candidate.id() != null);
			assertThat(event.data()).isEmpty();
			assertThat(ids.add(event.id())).isTrue();
			SseEvent replayed = resumed.nextMessage(WAIT);
			assertThat(uriOf(replayed)).as("resumed right after the priming event").isEqualTo("r://items/2");
			assertThat(replayed.data()).doesNotContain(NotificationEngine.RESYNC_META);
		}
	}

	@Test
	void idOlderThanTheLogGetsResyncForEverySubscription() throws Exception {
		String session = subscribedSession("2025-11-25", "r://items/{id}");
		call(session, "resources/subscribe", "{\"uri\":\"r://items/7\"}");
		String first;
		try (SseStream stream = this.client.openStream(session)) {
			publish("r://items/1");
			first = stream.nextMessage(WAIT).id();
			for (int i = 2; i <= 7; i++) {
				publish("r://items/" + i);
			}
			// Item 7 matches both subscriptions: seven messages after the first.
			for (int i = 0; i < 7; i++) {
				assertThat(stream.nextMessage(WAIT)).isNotNull();
			}
		}
		try (SseStream resumed = this.client.openStream(session, "Last-Event-ID", first)) {
			assertThat(List.of(resync(resumed.nextMessage(WAIT)), resync(resumed.nextMessage(WAIT))))
				.containsExactlyInAnyOrder(RESYNC_OF_ITEM_7, RESYNC_OF_THE_TEMPLATE);
		}
	}

	/**
	 * A client that does not declare correlation gets one notification per change, and
	 * after a gap one resync per subscription: no two messages it could not tell apart.
	 */
	@Test
	void aClientWithoutCorrelationGetsOneResyncPerSubscriptionAfterAGapAndOneNotificationPerChange() throws Exception {
		String session = this.client.initialize("2025-11-25", "{}");
		call(session, "resources/subscribe", "{\"uri\":\"r://items/{id}\"}");
		call(session, "resources/subscribe", "{\"uri\":\"r://items/7\"}");
		String first;
		try (SseStream stream = this.client.openStream(session)) {
			publish("r://items/1");
			first = stream.nextMessage(WAIT).id();
			for (int i = 2; i <= 8; i++) {
				publish("r://items/" + i);
			}
			// Item 7 matches both subscriptions and still comes once, before item 8.
			for (int i = 2; i <= 8; i++) {
				assertThat(uriOf(stream.nextMessage(WAIT))).isEqualTo("r://items/" + i);
			}
		}
		try (SseStream resumed = this.client.openStream(session, "Last-Event-ID", first)) {
			assertThat(List.of(resync(resumed.nextMessage(WAIT)), resync(resumed.nextMessage(WAIT))))
				.containsExactlyInAnyOrder(RESYNC_OF_ITEM_7, RESYNC_OF_THE_TEMPLATE);
			// Live changes follow the resyncs, one per change again: had there been a
			// third
			// resync or a second notification for item 7, it would come before item 9.
			publish("r://items/7");
			publish("r://items/9");
			JsonNode live = params(resumed.nextMessage(WAIT));
			assertThat(live.get("uri").stringValue()).isEqualTo("r://items/7");
			assertThat(live.get("subscribedUri").stringValue()).as("the most specific subscription")
				.isEqualTo("r://items/7");
			assertThat(live.get("_meta")).isNull();
			assertThat(uriOf(resumed.nextMessage(WAIT))).isEqualTo("r://items/9");
		}
	}

	@Test
	void anotherSessionsIdNeverReplaysItsMessages() throws Exception {
		String mine = subscribedSession("2025-11-25", "r://items/1");
		String theirs = subscribedSession("2025-11-25", "r://items/{id}");
		String theirId;
		try (SseStream stream = this.client.openStream(theirs)) {
			publish("r://items/99");
			theirId = stream.nextMessage(WAIT).id();
			publish("r://items/98");
			assertThat(stream.nextMessage(WAIT)).isNotNull();
		}
		try (SseStream stream = this.client.openStream(mine, "Last-Event-ID", theirId)) {
			JsonNode params = params(stream.nextMessage(WAIT));
			assertThat(params.get("uri").stringValue()).isEqualTo("r://items/1");
			assertThat(params.get("_meta").get("io.github.mcpsubscriptions/resync").booleanValue()).isTrue();
			assertThat(stream.nextMessage(Duration.ofMillis(300))).isNull();
		}
	}

	@Test
	void garbageLastEventIdIsAResyncNotAnError() throws Exception {
		String session = subscribedSession("2025-06-18", "r://items/1");
		try (SseStream stream = this.client.openStream(session, "Last-Event-ID", "not-an-id\u00e9")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			assertThat(params(stream.nextMessage(WAIT)).get("_meta").has("io.github.mcpsubscriptions/resync")).isTrue();
		}
	}

	@Test
	void aForgedPositionBeyondALongOrInTheFutureIsAResyncAndLiveDeliveryGoesOn() throws Exception {
		String session = subscribedSession("2025-11-25", "r://items/{id}");
		String real;
		try (SseStream stream = this.client.openStream(session)) {
			publish("r://items/1");
			real = stream.nextMessage(WAIT).id();
		}
		String streamPart = real.substring(0, real.lastIndexOf('-') + 1);
		int item = 2;
		for (String forged : List.of(streamPart + "99999999999999999999999", streamPart + "1000000",
				streamPart + "1.99999999999999999999999")) {
			try (SseStream resumed = this.client.openStream(session, "Last-Event-ID", forged)) {
				assertThat(resumed.response().statusCode()).as(forged).isEqualTo(200);
				assertThat(params(resumed.nextMessage(WAIT)).get("_meta").has(NotificationEngine.RESYNC_META))
					.as(forged)
					.isTrue();
				publish("r://items/" + item);
				assertThat(uriOf(resumed.nextMessage(WAIT))).as(forged).isEqualTo("r://items/" + item);
			}
			item++;
		}
	}

	@Test
	void aSessionWithoutAStreamHoldsAtMostTheDetachedCapacityThenOneResyncPerSubscription() throws Exception {
		String session = subscribedSession("2025-11-25", "r://items/{id}");
		call(session, "resources/subscribe", "{\"uri\":\"r://items/7\"}");
		for (int i = 1; i <= 10; i++) {
			publish("r://items/" + i);
		}
		Awaitility.await().atMost(WAIT).until(() -> this.dispatcher.getBacklog() == 0);
		try (SseStream stream = this.client.openStream(session)) {
			List<JsonNode> resyncs = List.of(params(stream.nextMessage(WAIT)), params(stream.nextMessage(WAIT)));
			assertThat(resyncs).as("past 3 waiting notifications, a resync per subscription: never a silent gap")
				.allSatisfy((params) -> assertThat(params.path("_meta").has(NotificationEngine.RESYNC_META)).isTrue());
			assertThat(resyncs).extracting((params) -> params.get("subscribedUri").stringValue())
				.containsExactlyInAnyOrder("r://items/{id}", "r://items/7");
			assertThat(stream.nextMessage(Duration.ofMillis(300))).as("the resyncs stand for the rest").isNull();
			publish("r://items/11");
			assertThat(uriOf(stream.nextMessage(WAIT))).isEqualTo("r://items/11");
		}
	}

	private String subscribedSession(String version, String uri) throws Exception {
		String session = this.client.initialize(version);
		call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}");
		return session;
	}

	private void call(String session, String method, String params) throws Exception {
		JsonNode body = json(this.client.call(session, method, params).body());
		assertThat(body.has("error")).as(body.toString()).isFalse();
	}

	private void publish(String uri) {
		this.events.publishEvent(new ResourceChangedEvent(uri, Map.of()));
	}

	private static JsonNode params(SseEvent event) {
		assertThat(event).as("a message arrives").isNotNull();
		return json(event.data()).get("params");
	}

	/**
	 * A resync's method, the URI it names and the subscription it is for. A resync names
	 * only what the client may read back: the item it follows; nothing concrete stands
	 * for the template (no collection, no listed instances), so its resync is a
	 * {@code list_changed} that names the subscription.
	 */
	private static String resync(SseEvent event) {
		assertThat(event).as("a message arrives").isNotNull();
		JsonNode message = json(event.data());
		JsonNode params = message.get("params");
		assertThat(params.get("_meta").get(NotificationEngine.RESYNC_META).booleanValue()).isTrue();
		return message.get("method").stringValue() + " " + (params.has("uri") ? params.get("uri").stringValue() : "-")
				+ " for " + params.get("subscribedUri").stringValue();
	}

	private static String uriOf(SseEvent event) {
		return params(event).get("uri").stringValue();
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Items items() {
			return new Items();
		}

	}

	static class Items {

		@McpResource(uri = "r://items/{id}")
		String item(String id) {
			return id;
		}

	}

}
