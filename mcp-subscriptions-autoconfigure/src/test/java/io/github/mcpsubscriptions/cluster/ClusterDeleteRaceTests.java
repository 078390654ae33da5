package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.session.SessionStore;
import io.github.mcpsubscriptions.stress.RacingRequests;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Subscribes on one node racing a {@code DELETE} of the same session on another, on one
 * real Redis: once every request has been answered, whatever the interleaving, the
 * cluster counts nothing (sessions, subscriptions) and no key of a session is left
 * without an expiry.
 */
class ClusterDeleteRaceTests {

	private static final int ROUNDS = 50;

	private static final int SUBSCRIBES = 8;

	private final ClusterNodes nodes = new ClusterNodes(6);

	private final ExecutorService pool = Executors.newFixedThreadPool(SUBSCRIBES + 1);

	@AfterEach
	void close() {
		this.pool.shutdownNow();
		this.nodes.close();
	}

	@Test
	void subscribesOnOneNodeRacingDeleteOnAnotherLeaveNoCountAndNoKeyWithoutExpiry() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start("a", "mcp.subscriptions.max-per-session=64",
				"mcp.subscriptions.max-total=100000");
		ConfigurableApplicationContext b = this.nodes.start("b", "mcp.subscriptions.max-per-session=64",
				"mcp.subscriptions.max-total=100000");
		McpTestClient onA = client(a);
		McpTestClient onB = client(b);
		for (int round = 0; round < ROUNDS; round++) {
			String id = onA.initialize("2025-11-25");
			RacingRequests race = new RacingRequests(this.pool);
			List<CompletableFuture<HttpResponse<String>>> subscribes = new ArrayList<>();
			for (int i = 0; i < SUBSCRIBES; i++) {
				String params = "{\"uri\":\"c://items/" + i + "\"}";
				subscribes.add(race.add(() -> onA.call(id, "resources/subscribe", params)));
			}
			CompletableFuture<HttpResponse<String>> delete = race.add(() -> onB.delete(id));
			race.go();
			assertThat(delete.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
			RacingRequests.assertAnsweredOrGone(subscribes);
		}
		SessionStore store = b.getBean(SessionStore.class);
		assertThat(store.countSubscriptions()).isZero();
		assertThat(store.count()).isZero();
		StringRedisTemplate redis = this.nodes.redis().redis();
		ClusterKeys keys = new ClusterKeys(this.nodes.redis().prefix());
		List<String> withoutExpiry = new ArrayList<>();
		for (String key : this.nodes.redis().keys()) {
			if (!key.equals(keys.log()) && redis.getExpire(key) == -1) {
				withoutExpiry.add(key + " " + redis.type(key));
			}
		}
		assertThat(withoutExpiry).isEmpty();
	}

}
