package io.github.mcpsubscriptions.cluster;

import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publish;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publishInOrder;
import static io.github.mcpsubscriptions.cluster.ClusterSessionTests.params;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What one reconnecting client may cost a node, and what it may claim: a replay of the
 * shared log is read a page at a time and written as the client takes it, bounded by
 * {@code mcp.sessions.max-replay}; a {@code Last-Event-ID} that names no real past
 * position of the session gets resyncs, never a 5xx.
 */
class ClusterReplayTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final ClusterNodes nodes = new ClusterNodes(5);

	@AfterEach
	void close() {
		this.nodes.close();
	}

	/** 100 distinct subscriptions that all cover {@code c://items/<n>}. */
	private static List<String> overlappingSubscriptions() {
		List<String> uris = new ArrayList<>(List.of("c://items", "c://items/{id}"));
		for (int i = 0; uris.size() < 100; i++) {
			uris.add("c://items?pattern=*&n=" + i);
		}
		return uris;
	}

	private static void subscribe(McpTestClient client, String session, String uri) throws Exception {
		HttpResponse<String> response = client.call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}");
		assertThat(json(response.body()).has("result")).as(response.body()).isTrue();
	}

	private static boolean isResync(SseEvent event) {
		JsonNode meta = params(event).get("_meta");
		return meta != null && meta.has("io.github.mcpsubscriptions/resync");
	}

	@Test
	void aReplayOfTheWholeLogTimesEverySubscriptionIsWrittenAsTheClientReadsInBoundedMemory() throws Exception {
		int changes = 1000;
		List<String> subscriptions = overlappingSubscriptions();
		ConfigurableApplicationContext p = this.nodes.start("p");
		McpTestClient onP = client(p);
		String session = onP.initialize();
		for (String uri : subscriptions) {
			subscribe(onP, session, uri);
		}
		for (int i = 0; i < changes; i++) {
			publish(p, "c://items/" + i);
		}
		await().atMost(Duration.ofSeconds(60)).until(() -> p.getBean(ClusterStats.class).getPublished() >= changes);
		// 100,000 notifications of about 400 bytes each, replayed by a node with a 64 MB
		// heap:
		// held at once they do not fit.
		try (ClusterNodeProcess f = ClusterNodeProcess.startWithHeap("64m",
				this.nodes.redis().nodeArguments("mcp.cluster.node-name=f", "mcp.sessions.max-replay=1000000"))) {
			HttpRequest get = HttpRequest.newBuilder(f.client().endpoint())
				.GET()
				.header("Accept", "text/event-stream")
				.header("Mcp-Session-Id", session)
				.build();
			HttpResponse<Stream<String>> response = HttpClient.newHttpClient()
				.send(get, HttpResponse.BodyHandlers.ofLines());
			assertThat(response.statusCode()).isEqualTo(200);
			AtomicLong notifications = new AtomicLong();
			AtomicLong resyncs = new AtomicLong();
			Thread reader = new Thread(() -> {
				try {
					response.body().forEach((line) -> {
						if (line.startsWith("data:") && line.contains("notifications/resources/updated")) {
							notifications.incrementAndGet();
							if (line.contains("io.github.mcpsubscriptions/resync")) {
								resyncs.incrementAndGet();
							}
						}
					});
				}
				catch (UncheckedIOException ex) {
					// The node ended the stream (or died): the assertions below say
					// which.
				}
			}, "replay-counter");
			reader.setDaemon(true);
			reader.start();
			long expected = (long) changes * subscriptions.size();
			await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200)).until(() -> {
				assertThat(f.isAlive()).as("the node is alive: %s", f.output()).isTrue();
				return notifications.get() >= expected;
			});
			assertThat(resyncs.get()).as("everything was replayed, nothing needed a resync").isZero();
			HttpResponse<String> ping = f.client().call(session, "ping", null);
			assertThat(ping.statusCode()).as("the node still answers").isEqualTo(200);
			response.body().close();
		}
	}

	@Test
	void pastMaxReplayTheClientIsToldToResyncAndResumesAfterTheLog() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start("a", "mcp.sessions.max-replay=5");
		McpTestClient onA = client(a);
		String session = onA.initialize();
		subscribe(onA, session, "c://items");
		subscribe(onA, session, "c://other/{id}");
		String lastId;
		try (SseStream stream = onA.openStream(session)) {
			publish(a, "c://items/0");
			lastId = stream.nextMessage(WAIT).id();
		}
		for (int i = 1; i <= 8; i++) {
			publishInOrder(a, "c://items/" + i);
		}
		try (SseStream resumed = onA.openStream(session, "Last-Event-ID", lastId)) {
			for (int i = 1; i <= 5; i++) {
				SseEvent replayed = resumed.nextMessage(WAIT);
				assertThat(isResync(replayed)).isFalse();
				assertThat(params(replayed).get("uri").stringValue()).isEqualTo("c://items/" + i);
			}
			// Past the bound, a resync per subscription: c://items names itself; nothing
			// concrete can be read for c://other/{id}, so its resync is a list_changed.
			List<String> resynced = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				SseEvent resync = resumed.nextMessage(WAIT);
				JsonNode message = json(resync.data());
				resynced.add(message.get("method").stringValue().endsWith("list_changed") ? "list_changed"
						: (isResync(resync) ? params(resync).get("subscribedUri").stringValue() : resync.data()));
				lastId = resync.id();
			}
			assertThat(resynced).containsExactlyInAnyOrder("c://items", "list_changed");
			publish(a, "c://items/9");
			assertThat(params(resumed.nextMessage(WAIT)).get("uri").stringValue()).isEqualTo("c://items/9");
		}
		try (SseStream again = onA.openStream(session, "Last-Event-ID", lastId)) {
			assertThat(params(again.nextMessage(WAIT)).get("uri").stringValue())
				.as("a resync's id resumes after what it covered")
				.isEqualTo("c://items/9");
		}
	}

	@Test
	void aPositionBeyondALongOrInTheFutureGetsResyncsAndLiveDeliveryGoesOn() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start("a");
		McpTestClient onA = client(a);
		String session = onA.initialize();
		subscribe(onA, session, "c://items");
		String realId;
		try (SseStream stream = onA.openStream(session)) {
			publish(a, "c://items/1");
			realId = stream.nextMessage(WAIT).id();
		}
		// <tag>-<epoch>-<ms>-<seq>-<n>
		String[] parts = realId.split("-");
		String tagAndEpoch = parts[0] + "-" + parts[1] + "-";
		long future = Long.parseLong(parts[2]) + Duration.ofDays(365).toMillis();
		List<String> forged = List.of(tagAndEpoch + "99999999999999999999999-0-0",
				tagAndEpoch + parts[2] + "-99999999999999999999999-0", tagAndEpoch + future + "-0-0",
				tagAndEpoch + parts[2] + "-" + parts[3] + "-99999999999999999999999");
		int item = 2;
		for (String lastEventId : forged) {
			try (SseStream resumed = onA.openStream(session, "Last-Event-ID", lastEventId)) {
				assertThat(resumed.response().statusCode()).as(lastEventId).isEqualTo(200);
				SseEvent resync = resumed.nextMessage(WAIT);
				assertThat(isResync(resync)).as("%s: a resync, got %s", lastEventId, resync).isTrue();
				publish(a, "c://items/" + item);
				SseEvent live = resumed.nextMessage(WAIT);
				assertThat(live).as("%s: live delivery goes on", lastEventId).isNotNull();
				assertThat(params(live).get("uri").stringValue()).isEqualTo("c://items/" + item);
			}
			item++;
		}
	}

}
