package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publish;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publishInOrder;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * 2025-era sessions across three nodes sharing one real Redis, with no stickiness: every
 * request of a session may land on any node.
 */
class ClusterSessionTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final ClusterNodes nodes = new ClusterNodes(4);

	private ConfigurableApplicationContext a;

	private ConfigurableApplicationContext b;

	private ConfigurableApplicationContext c;

	@BeforeEach
	void start() {
		this.a = this.nodes.start("a");
		this.b = this.nodes.start("b");
		this.c = this.nodes.start("c");
	}

	@AfterEach
	void close() {
		this.nodes.close();
	}

	private static void subscribe(ConfigurableApplicationContext node, String session, String uri) throws Exception {
		HttpResponse<String> response = client(node).call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(json(response.body()).has("result")).as(response.body()).isTrue();
	}

	private static void unsubscribe(ConfigurableApplicationContext node, String session, String uri) throws Exception {
		HttpResponse<String> response = client(node).call(session, "resources/unsubscribe",
				"{\"uri\":\"" + uri + "\"}");
		assertThat(json(response.body()).has("result")).as(response.body()).isTrue();
	}

	static JsonNode params(SseEvent event) {
		assertThat(event).as("a notification").isNotNull();
		JsonNode message = json(event.data());
		assertThat(message.get("method").stringValue()).isEqualTo("notifications/resources/updated");
		return message.get("params");
	}

	private static String uri(SseEvent event) {
		return params(event).get("uri").stringValue();
	}

	@Test
	void everyRequestOnAnotherNodeAndTheNotificationArrivesOnce() throws Exception {
		String session = client(this.a).initialize();
		subscribe(this.b, session, "c://items/1");
		subscribe(this.b, session, "c://items/2");
		try (SseStream onC = client(this.c).openStream(session)) {
			assertThat(onC.response().statusCode()).isEqualTo(200);
			publish(this.a, "c://items/1");
			JsonNode first = params(onC.nextMessage(WAIT));
			assertThat(first.get("uri").stringValue()).isEqualTo("c://items/1");
			assertThat(first.get("subscribedUri").stringValue()).isEqualTo("c://items/1");

			unsubscribe(this.a, session, "c://items/1");
			publish(this.b, "c://items/1");
			publish(this.b, "c://items/2");
			assertThat(uri(onC.nextMessage(WAIT))).as("nothing for the removed subscription, nothing twice")
				.isEqualTo("c://items/2");

			// One stream per session in the cluster: a GET on A replaces C's.
			try (SseStream onA = client(this.a).openStream(session)) {
				assertThat(onA.response().statusCode()).isEqualTo(200);
				assertThat(onC.awaitEnd(WAIT)).as("the stream on C ends").isTrue();
				publish(this.c, "c://items/2");
				assertThat(uri(onA.nextMessage(WAIT))).isEqualTo("c://items/2");

				// DELETE on B ends the stream on A and frees everything everywhere.
				assertThat(client(this.b).delete(session).statusCode()).isEqualTo(204);
				assertThat(onA.awaitEnd(WAIT)).as("the stream on A ends").isTrue();
			}
		}
		for (ConfigurableApplicationContext node : List.of(this.a, this.b, this.c)) {
			HttpResponse<String> gone = client(node).call(session, "ping", null);
			assertThat(gone.statusCode()).isEqualTo(404);
		}
		assertThat(this.nodes.redis().keys()).noneMatch((key) -> key.contains(session));
	}

	@Test
	void changesAfterAnsweredSubscribeAreDeliveredInPublicationOrder() throws Exception {
		String session = client(this.a).initialize();
		try (SseStream onC = client(this.c).openStream(session)) {
			assertThat(onC.response().statusCode()).isEqualTo(200);
			subscribe(this.b, session, "c://items");
			List<String> expected = new ArrayList<>();
			List<ConfigurableApplicationContext> publishers = List.of(this.a, this.b, this.c);
			for (int i = 0; i < 30; i++) {
				String uri = "c://items/" + i;
				publishInOrder(publishers.get(i % 3), uri);
				expected.add(uri);
			}
			List<String> received = new ArrayList<>();
			for (int i = 0; i < 30; i++) {
				received.add(uri(onC.nextMessage(WAIT)));
			}
			assertThat(received).containsExactlyElementsOf(expected);
		}
	}

	@Test
	void subscribeBeforeTheStreamOpensLosesNothing() throws Exception {
		String session = client(this.a).initialize();
		subscribe(this.a, session, "c://items");
		publish(this.b, "c://items/1");
		publish(this.b, "c://items/2");
		publish(this.b, "c://other/3");
		org.awaitility.Awaitility.await()
			.atMost(WAIT)
			.until(() -> this.c.getBean(ClusterStats.class).getReceived() >= 3);
		try (SseStream onC = client(this.c).openStream(session)) {
			assertThat(uri(onC.nextMessage(WAIT))).isEqualTo("c://items/1");
			assertThat(uri(onC.nextMessage(WAIT))).isEqualTo("c://items/2");
			publish(this.a, "c://items/4");
			assertThat(uri(onC.nextMessage(WAIT))).isEqualTo("c://items/4");
		}
	}

	@Test
	void resumeOnAnotherNodeGetsExactlyWhatFollowedThenLive() throws Exception {
		String session = client(this.a).initialize();
		subscribe(this.b, session, "c://items");
		String lastId;
		try (SseStream onC = client(this.c).openStream(session)) {
			publish(this.a, "c://items/1");
			publish(this.a, "c://items/2");
			assertThat(uri(onC.nextMessage(WAIT))).isEqualTo("c://items/1");
			SseEvent second = onC.nextMessage(WAIT);
			assertThat(uri(second)).isEqualTo("c://items/2");
			lastId = second.id();
		}
		publish(this.b, "c://items/3");
		publish(this.b, "c://items/4");
		publish(this.b, "c://items/5");
		org.awaitility.Awaitility.await()
			.atMost(WAIT)
			.until(() -> this.b.getBean(ClusterStats.class).getPublished() >= 3);
		List<String> ids = new ArrayList<>();
		try (SseStream onA = client(this.a).openStream(session, "Last-Event-ID", lastId)) {
			for (int i = 3; i <= 5; i++) {
				SseEvent event = onA.nextMessage(WAIT);
				assertThat(uri(event)).isEqualTo("c://items/" + i);
				ids.add(event.id());
			}
			publish(this.c, "c://items/6");
			SseEvent live = onA.nextMessage(WAIT);
			assertThat(uri(live)).as("live after the replay, nothing twice").isEqualTo("c://items/6");
			ids.add(live.id());
		}
		assertThat(ids).doesNotHaveDuplicates().doesNotContain(lastId);
	}

	@Test
	void forgedOrForeignIdsGetResyncsNeverSilence() throws Exception {
		McpTestClient onA = client(this.a);
		String session = onA.initialize();
		String other = onA.initialize();
		subscribe(this.b, session, "c://items");
		subscribe(this.b, other, "c://items");
		String foreignId;
		try (SseStream otherStream = client(this.c).openStream(other)) {
			publish(this.a, "c://items/1");
			foreignId = otherStream.nextMessage(WAIT).id();
		}
		for (String lastEventId : List.of(foreignId, "forged-1-2-3", "zz")) {
			try (SseStream resumed = client(this.b).openStream(session, "Last-Event-ID", lastEventId)) {
				JsonNode resync = params(resumed.nextMessage(WAIT));
				assertThat(resync.get("uri").stringValue()).isEqualTo("c://items");
				assertThat(resync.get("_meta").get("io.github.mcpsubscriptions/resync").booleanValue()).isTrue();
			}
		}
	}

	@Test
	void anIdOlderThanTheLogGetsResyncs() throws Exception {
		ConfigurableApplicationContext small = this.nodes.start("small", "mcp.cluster.log-size=3");
		String session = client(small).initialize();
		subscribe(small, session, "c://items");
		String firstId;
		try (SseStream stream = client(small).openStream(session)) {
			publish(small, "c://items/1");
			firstId = stream.nextMessage(WAIT).id();
		}
		for (int i = 2; i <= 6; i++) {
			publish(small, "c://items/" + i);
			long received = i;
			org.awaitility.Awaitility.await()
				.atMost(WAIT)
				.until(() -> small.getBean(ClusterStats.class).getReceived() >= received);
		}
		// Resumed on another node: this one may still hold notifications for the old
		// stream.
		try (SseStream resumed = client(this.a).openStream(session, "Last-Event-ID", firstId)) {
			JsonNode resync = params(resumed.nextMessage(WAIT));
			assertThat(resync.get("uri").stringValue()).isEqualTo("c://items");
			assertThat(resync.get("_meta").get("io.github.mcpsubscriptions/resync").booleanValue()).isTrue();
		}
	}

	@Test
	void whenTheNodeHoldingTheStreamGoesAwayTheClientResumesElsewhereWithNothingLost() throws Exception {
		String session = client(this.a).initialize();
		subscribe(this.a, session, "c://items");
		String lastId;
		SseStream onC = client(this.c).openStream(session);
		publish(this.b, "c://items/1");
		SseEvent first = onC.nextMessage(WAIT);
		assertThat(uri(first)).isEqualTo("c://items/1");
		lastId = first.id();
		// C goes away under a steady flow of changes published on A and B.
		this.c.close();
		onC.close();
		List<String> expected = new ArrayList<>();
		for (int i = 2; i <= 20; i++) {
			publishInOrder((i % 2 == 0) ? this.a : this.b, "c://items/" + i);
			expected.add("c://items/" + i);
		}
		List<String> received = new ArrayList<>();
		try (SseStream onB = client(this.b).openStream(session, "Last-Event-ID", lastId)) {
			for (int i = 2; i <= 20; i++) {
				received.add(uri(onB.nextMessage(WAIT)));
			}
			assertThat(onB.nextMessage(Duration.ofMillis(500))).as("nothing twice").isNull();
		}
		assertThat(received).containsExactlyElementsOf(expected);
	}

}
