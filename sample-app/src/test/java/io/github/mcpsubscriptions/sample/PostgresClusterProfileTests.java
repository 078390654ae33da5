package io.github.mcpsubscriptions.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.github.mcpsubscriptions.tester.McpEventPoll;
import io.github.mcpsubscriptions.tester.McpNotification;
import io.github.mcpsubscriptions.tester.McpSession;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Profiles {@code postgres} and {@code cluster} together: two nodes share one PostgreSQL
 * catalogue (a schema of its own, see {@link SamplePostgres}) and one Redis (the run's,
 * database 11, a key prefix of their own that the test removes). A change by any writer,
 * or through either node's REST API, is captured once and notified once to a subscriber
 * on each node.
 */
class PostgresClusterProfileTests {

	/**
	 * After a change is notified and captured, how long a second notification would take
	 * at most.
	 */
	private static final Duration SECOND_NOTIFICATION_WINDOW = Duration.ofSeconds(2);

	private static final String KEY_PREFIX = "mcp-sample-pg-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private static SamplePostgres database;

	private static ConfigurableApplicationContext nodeA;

	private static ConfigurableApplicationContext nodeB;

	@BeforeAll
	static void startNodes() {
		database = new SamplePostgres();
		database.createCatalogue();
		nodeA = startNode();
		nodeB = startNode();
	}

	private static ConfigurableApplicationContext startNode() {
		return database.start("postgres,cluster", "--spring.data.redis.database=11",
				"--mcp.cluster.key-prefix=" + KEY_PREFIX);
	}

	@AfterAll
	static void stopNodes() {
		try {
			if (nodeB != null) {
				nodeB.close();
			}
			if (nodeA != null) {
				StringRedisTemplate redis = nodeA.getBean(StringRedisTemplate.class);
				Set<String> keys = redis.keys(KEY_PREFIX + "*");
				if (keys != null && !keys.isEmpty()) {
					redis.delete(keys);
				}
				nodeA.close();
			}
		}
		finally {
			if (database != null) {
				database.close();
			}
		}
	}

	@Test
	void aChangeByAnotherWriterIsNotifiedOnceOnEachNode() {
		try (McpSession onA = tester(nodeA).session();
				McpSubscription onB = tester(nodeB).listen("catalog://products")) {
			McpSubscription subscriptionOnA = onA.subscribe("catalog://products");
			double captured = captured();

			assertThat(database.execute("update %s.product set price = 9.99 where id = 3")).isOne();

			assertNotifiedOnce(subscriptionOnA, "catalog://products/3", "updated", onB, captured);
		}
	}

	@Test
	void aWriteThroughOneNodesRestApiIsNotifiedOnceOnEachNode() throws Exception {
		try (McpSession onA = tester(nodeA).session();
				McpSubscription onB = tester(nodeB).listen("catalog://products")) {
			McpSubscription subscriptionOnA = onA.subscribe("catalog://products");
			double captured = captured();

			assertThat(SamplePostgres.rest(nodeA, "PUT", "/api/products/4", "{\"name\":\"Office chair\",\"price\":179}")
				.statusCode()).isEqualTo(200);

			assertNotifiedOnce(subscriptionOnA, "catalog://products/4", "updated", onB, captured);
		}
	}

	@Test
	void eachChangeByAnyWriterIsOneProductEventInTheSharedLogPolledOnEitherNode() throws Exception {
		McpEventPoll onA = tester(nodeA).pollEvents("catalog.product.changed", Map.of("id", 5));
		McpEventPoll onB = tester(nodeB).pollEvents("catalog.product.changed", Map.of("id", 5));

		assertThat(database.execute("update %s.product set price = 31.00 where id = 5")).isOne();
		assertThat(nextPrice(onA)).isEqualTo("31");
		assertThat(SamplePostgres.rest(nodeB, "PUT", "/api/products/5", "{\"name\":\"Monitor stand\",\"price\":32}")
			.statusCode()).isEqualTo(200);
		assertThat(nextPrice(onA)).isEqualTo("32");
		// A third change: once it is in, a second event for either change would be too.
		assertThat(database.execute("update %s.product set price = 33.00 where id = 5")).isOne();
		assertThat(nextPrice(onA)).isEqualTo("33");

		List<String> seenOnB = new ArrayList<>();
		onB.next().forEach((data) -> seenOnB.add(price(data)));
		assertThat(seenOnB).containsExactly("31", "32", "33");
	}

	/** Waits for the one next event of a poll; its price. */
	private static String nextPrice(McpEventPoll poll) {
		List<String> prices = new ArrayList<>();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			poll.next().forEach((data) -> prices.add(price(data)));
			return !prices.isEmpty();
		});
		assertThat(prices).hasSize(1);
		return prices.get(0);
	}

	private static String price(JsonNode data) {
		return data.get("price").decimalValue().stripTrailingZeros().toPlainString();
	}

	private static void assertNotifiedOnce(McpSubscription onA, String uri, String change, McpSubscription onB,
			double capturedBefore) {
		for (McpSubscription subscription : new McpSubscription[] { onA, onB }) {
			McpNotification notification = subscription.awaitNotification();
			assertThat(notification.uri()).isEqualTo(uri);
			assertThat(notification.meta()).containsEntry("change", change);
		}
		// One node read the change from the database, not both.
		await().atMost(Duration.ofSeconds(10)).until(() -> captured() >= capturedBefore + 1);
		onA.assertNoNotification(SECOND_NOTIFICATION_WINDOW);
		onB.assertNoNotification(Duration.ZERO);
		assertThat(captured()).isEqualTo(capturedBefore + 1);
	}

	private static double captured() {
		return SamplePostgres.captured(nodeA) + SamplePostgres.captured(nodeB);
	}

	private static McpTester tester(ConfigurableApplicationContext node) {
		return McpTester.forUrl(SamplePostgres.baseUrl(node) + "/mcp");
	}

}
