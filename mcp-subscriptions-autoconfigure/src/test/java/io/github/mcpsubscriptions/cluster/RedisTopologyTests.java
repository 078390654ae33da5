package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.session.SessionStore;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publishInOrder;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cluster on the Redis topologies production runs, each started by the test from the
 * machine's redis-server on free ports and configured through Spring Boot's own
 * properties: Redis Sentinel (a master, a replica, a sentinel) and Redis Cluster (three
 * masters).
 */
class RedisTopologyTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final Duration QUIET = Duration.ofSeconds(1);

	private final ClusterNodes nodes = new ClusterNodes(6);

	private RedisTopology topology;

	@AfterEach
	void close() throws Exception {
		this.nodes.close();
		if (this.topology != null) {
			this.topology.close();
		}
	}

	@Test
	void sentinelMadeOnOneNodeSubscribedOnAnotherChangedThroughAThirdNotifiesOnce() throws Exception {
		this.topology = new RedisTopology.Sentinel();
		madeOnOneSubscribedOnAnotherChangedThroughAThird();
	}

	@Test
	void redisClusterMadeOnOneNodeSubscribedOnAnotherChangedThroughAThirdNotifiesOnce() throws Exception {
		this.topology = new RedisTopology.Cluster();
		madeOnOneSubscribedOnAnotherChangedThroughAThird();
	}

	@Test
	void redisClusterSpreadsTheSessionsOverTheMastersAndStreamsFollowEveryOne() throws Exception {
		RedisTopology.Cluster cluster = new RedisTopology.Cluster();
		this.topology = cluster;
		ConfigurableApplicationContext a = this.nodes.start("a", cluster);
		ConfigurableApplicationContext b = this.nodes.start("b", cluster);
		// Enough sessions that, hashed by their id, each master holds some.
		List<String> sessions = new ArrayList<>();
		List<SseStream> streams = new ArrayList<>();
		try {
			for (int i = 0; i < 6; i++) {
				String session = client(a).initialize();
				assertThat(client(b).call(session, "resources/subscribe", "{\"uri\":\"c://items/" + i + "\"}")
					.statusCode()).isEqualTo(200);
				sessions.add(session);
				streams.add(client((i % 2 == 0) ? a : b).openStream(session));
			}
			assertThat(sessions.stream().map((session) -> {
				try {
					return cluster.holderOf(this.nodes.redis().prefix() + "session:{" + session + "}").port();
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}).distinct().count()).as("sessions on more than one master").isGreaterThan(1);
			for (int i = 0; i < 6; i++) {
				publishInOrder((i % 2 == 0) ? b : a, "c://items/" + i);
			}
			for (int i = 0; i < 6; i++) {
				new Deliveries().readUntil(streams.get(i), "c://items/" + i, WAIT)
					.read(streams.get(i), QUIET)
					.assertExactly(List.of("c://items/" + i));
			}
			for (String session : sessions) {
				assertThat(client(a).delete(session).statusCode()).isEqualTo(204);
			}
		}
		finally {
			streams.forEach(SseStream::close);
		}
		assertCountsBackToZero(a);
	}

	@Test
	void sentinelFailoverNodesRecoverWithoutARestartAndLoseNothingSilently() throws Exception {
		RedisTopology.Sentinel sentinel = new RedisTopology.Sentinel();
		this.topology = sentinel;
		ConfigurableApplicationContext a = this.nodes.start("a", sentinel, "mcp.cluster.poll-timeout=200ms");
		ConfigurableApplicationContext b = this.nodes.start("b", sentinel, "mcp.cluster.poll-timeout=200ms");
		String session = client(a).initialize();
		assertThat(client(b).call(session, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode())
			.isEqualTo(200);
		List<String> window = new ArrayList<>();
		Deliveries deliveries = new Deliveries();
		try (SseStream stream = client(b).openStream(session)) {
			publishInOrder(a, "c://items/0");
			deliveries.readUntil(stream, "c://items/0", WAIT);

			// Changes just before the master dies, and while Sentinel promotes the
			// replica.
			for (int i = 1; i <= 3; i++) {
				ClusterNodes.publish(a, "c://items/" + i);
				window.add("c://items/" + i);
			}
			sentinel.failOver();
			for (int i = 4; i <= 6; i++) {
				ClusterNodes.publish(a, "c://items/" + i);
				window.add("c://items/" + i);
			}

			// Both nodes recover by themselves: healthy, answering, sharing changes
			// again.
			for (ConfigurableApplicationContext node : List.of(a, b)) {
				ClusterHealthIndicator health = node.getBean(ClusterHealthIndicator.class);
				await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.UP));
			}
			await().atMost(WAIT).until(() -> client(a).call(session, "ping", null).statusCode() == 200);
			HttpResponse<String> ping = client(b).call(session, "ping", null);
			assertThat(ping.statusCode()).as(ping.body()).isEqualTo(200);
			publishInOrder(b, "c://items/7");
			deliveries.readUntil(stream, "c://items/7", WAIT).read(stream, QUIET);
		}
		deliveries.assertNothingLostOrResynced(window);
		assertThat(
				json(client(a).call(session, "resources/subscribe", "{\"uri\":\"c://other/1\"}").body()).has("result"))
			.as("the session survived the failover")
			.isTrue();
		assertThat(client(a).delete(session).statusCode()).isEqualTo(204);
		assertCountsBackToZero(a);
	}

	private void madeOnOneSubscribedOnAnotherChangedThroughAThird() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start("a", this.topology);
		ConfigurableApplicationContext b = this.nodes.start("b", this.topology);
		ConfigurableApplicationContext c = this.nodes.start("c", this.topology);
		String session = client(a).initialize();
		HttpResponse<String> subscribed = client(b).call(session, "resources/subscribe", "{\"uri\":\"c://items\"}");
		assertThat(json(subscribed.body()).has("result")).as(subscribed.body()).isTrue();
		try (SseStream stream = client(a).openStream(session)) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			publishInOrder(c, "c://items/1");
			new Deliveries().readUntil(stream, "c://items/1", WAIT)
				.read(stream, QUIET)
				.assertExactly(List.of("c://items/1"));
		}
		assertThat(client(c).delete(session).statusCode()).isEqualTo(204);
		assertCountsBackToZero(b);
	}

	private static void assertCountsBackToZero(ConfigurableApplicationContext node) {
		SessionStore store = node.getBean(SessionStore.class);
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(store.count()).as("sessions").isZero();
			assertThat(store.countSubscriptions()).as("subscriptions").isZero();
		});
	}

}
