package io.github.mcpsubscriptions.sample;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;

import io.github.mcpsubscriptions.tester.McpNotification;
import io.github.mcpsubscriptions.tester.McpSession;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
