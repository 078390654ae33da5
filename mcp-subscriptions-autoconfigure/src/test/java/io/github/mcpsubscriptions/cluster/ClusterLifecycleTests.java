package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publishInOrder;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Idle expiry, limits and key hygiene hold for the cluster, not per node.
 */
class ClusterLifecycleTests {

	private final ClusterNodes nodes = new ClusterNodes(6);

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void sessionAndSubscriptionLimitsCountAcrossNodes() throws Exception {
		List<ConfigurableApplicationContext> all = List.of(
				this.nodes.start("a", "mcp.sessions.max=3", "mcp.subscriptions.max-per-session=2"),
				this.nodes.start("b", "mcp.sessions.max=3", "mcp.subscriptions.max-per-session=2"),
				this.nodes.start("c", "mcp.sessions.max=3", "mcp.subscriptions.max-per-session=2"));
		String first = client(all.get(0)).initialize();
		client(all.get(1)).initialize();
		client(all.get(2)).initialize();
		HttpResponse<String> refused = client(all.get(0)).post(client(all.get(0)).initializeBody("2025-11-25"));
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Retry-After")).isPresent();
		assertThat(refused.body()).contains("mcp.sessions.max");

		assertThat(subscribe(all.get(0), first, "c://items/1").has("result")).isTrue();
		assertThat(subscribe(all.get(1), first, "c://items/2").has("result")).isTrue();
		assertThat(subscribe(all.get(2), first, "c://items/2").has("result")).as("idempotent").isTrue();
		JsonNode limited = subscribe(all.get(2), first, "c://items/3");
		assertThat(limited.get("error").get("code").intValue()).isEqualTo(-32000);
		assertThat(limited.get("error").get("message").stringValue()).contains("mcp.subscriptions.max-per-session");

		assertThat(client(all.get(1)).delete(first).statusCode()).isEqualTo(204);
		assertThat(client(all.get(2)).initialize()).as("a freed place counts everywhere").isNotBlank();
	}

	private static JsonNode subscribe(ConfigurableApplicationContext node, String session, String uri)
			throws Exception {
		return json(client(node).call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}").body());
	}

	@Test
	void theSubscriptionTotalCountsAcrossNodesAndFreesWhenSessionsEndOrExpire() throws Exception {
		String[] limits = { "mcp.subscriptions.max-total=3", "mcp.sessions.idle-timeout=2s" };
		ConfigurableApplicationContext a = this.nodes.start("a", limits);
		ConfigurableApplicationContext b = this.nodes.start("b", limits);
		String one = client(a).initialize();
		String two = client(b).initialize();
		String three = client(b).initialize();
		assertThat(subscribe(a, one, "c://items/1").has("result")).isTrue();
		assertThat(subscribe(b, two, "c://items/2").has("result")).isTrue();
		assertThat(subscribe(b, two, "c://items/3").has("result")).isTrue();
		JsonNode refused = subscribe(a, one, "c://items/4");
		assertThat(refused.get("error").get("data").get("limit").stringValue()).as(refused.toString())
			.isEqualTo("mcp.subscriptions.max-total");
		assertThat(subscribe(a, one, "c://items/1").has("result")).as("holding one again adds nothing").isTrue();

		assertThat(client(b).call(two, "resources/unsubscribe", "{\"uri\":\"c://items/3\"}").statusCode())
			.isEqualTo(200);
		assertThat(subscribe(a, three, "c://items/4").has("result")).as("an unsubscribe frees a place").isTrue();
		assertThat(client(a).delete(two).statusCode()).isEqualTo(204);
		assertThat(subscribe(a, three, "c://items/5").has("result")).as("an ended session frees its places").isTrue();
		// Session one is left idle until it expires (kept alive meanwhile: three is
		// used).
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
			assertThat(client(b).call(three, "ping", null).statusCode()).isEqualTo(200);
			assertThat(subscribe(b, three, "c://items/6").has("result")).as("an expired session frees its places")
				.isTrue();
		});
	}

	@Test
	void abandonedSessionsExpireEverywhereAndTheirKeysGoWhileOneInUseStays() throws Exception {
		String[] idle = { "mcp.sessions.idle-timeout=3s" };
		List<ConfigurableApplicationContext> all = List.of(this.nodes.start("a", idle), this.nodes.start("b", idle),
				this.nodes.start("c", idle));
		publishInOrder(all.get(0), "c://items/0");
		Set<String> start = this.nodes.redis().keys();
		// A session created on A whose stream is on C is in use, however idle A sees it;
		// it keeps five keys: its hash, its subscriptions, the sessions by expiry, and
		// the
		// subscription counts by session and in all.
		String kept = client(all.get(0)).initialize();
		subscribe(all.get(1), kept, "c://items");
		try (SseStream stream = client(all.get(2)).openStream(kept)) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			for (int i = 0; i < 1000; i++) {
				String session = client(all.get(i % 3)).initialize();
				if (i % 4 == 0) {
					subscribe(all.get((i + 1) % 3), session, "c://items/" + i);
				}
			}
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(500))
				.untilAsserted(() -> assertThat(this.nodes.redis().keys()).hasSize(start.size() + 5));
			assertThat(this.nodes.redis().keys()).containsAll(start);
			for (ConfigurableApplicationContext node : all) {
				assertThat(client(node).call(kept, "ping", null).statusCode()).isEqualTo(200);
			}
			publishInOrder(all.get(1), "c://items/7");
			assertThat(json(stream.nextMessage(Duration.ofSeconds(10)).data()).get("params").get("uri").stringValue())
				.isEqualTo("c://items/7");
		}
		assertThat(client(all.get(0)).delete(kept).statusCode()).isEqualTo(204);
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(this.nodes.redis().keys()).isEqualTo(start));
	}

}
