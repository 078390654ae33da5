package io.github.mcpsubscriptions.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Profile {@code postgres}: the catalogue in a real PostgreSQL (a schema of its own, see
 * {@link SamplePostgres}), and every committed change of table {@code product} notified,
 * whoever wrote it: another writer's update, insert and delete as {@code psql} would send
 * them (plain JDBC, not through the sample), and the REST API's writes once each,
 * although {@code CatalogService} still publishes its events.
 */
class PostgresProfileTests {

	/**
	 * After a change is notified and captured, how long a second notification would take
	 * at most.
	 */
	private static final Duration SECOND_NOTIFICATION_WINDOW = Duration.ofSeconds(2);

	private static SamplePostgres database;

	private static ConfigurableApplicationContext sample;

	private static McpTester mcp;

	@BeforeAll
	static void startSample() {
		database = new SamplePostgres();
		database.createCatalogue();
		sample = database.start("postgres");
		mcp = McpTester.forUrl(SamplePostgres.baseUrl(sample) + "/mcp");
	}

	@AfterAll
	static void stopSample() {
		try {
			if (sample != null) {
				sample.close();
			}
		}
		finally {
			if (database != null) {
				database.close();
			}
		}
	}

	@Test
	void anUpdateByAnotherWriterNotifiesASubscriberOfTheProduct() {
		try (McpSession session = mcp.session()) {
			McpSubscription product = session.subscribe("catalog://products/1");

			assertThat(database.execute("update %s.product set price = 9.99 where id = 1")).isOne();

			McpNotification notification = product.awaitNotification();
			assertThat(notification.uri()).isEqualTo("catalog://products/1");
			assertThat(notification.meta()).containsEntry("change", "updated");
			assertThat(session.read("catalog://products/1").text()).contains("9.99");
		}
	}

	@Test
	void anInsertAndADeleteByAnotherWriterNotifyAListenerOfTheCatalogueAndChangeTheList() {
		try (McpSubscription products = mcp.listen("catalog://products"); McpSession session = mcp.session()) {
			long id = database.insert("Lamp shade", "12.50");

			McpNotification created = products.awaitNotification();
			assertThat(created.uri()).isEqualTo("catalog://products/" + id);
			assertThat(created.subscribedUri()).isEqualTo("catalog://products");
			assertThat(created.meta()).containsEntry("change", "created");
			// catalog://products/{id} lists its instances: resources/list has one more.
			session.awaitListChanged();
			assertThat(session.listResources().uris()).contains("catalog://products/" + id);

			assertThat(database.execute("delete from %s.product where id = ?", id)).isOne();

			McpNotification deleted = products.awaitNotification();
			assertThat(deleted.uri()).isEqualTo("catalog://products/" + id);
			assertThat(deleted.meta()).containsEntry("change", "deleted");
			session.awaitListChanged();
			assertThat(session.listResources().uris()).doesNotContain("catalog://products/" + id);
		}
	}

	@Test
	void eachWriteThroughTheRestApiIsNotifiedOnceNotTwice() throws Exception {
		try (McpSubscription products = mcp.listen("catalog://products")) {
			double captured = SamplePostgres.captured(sample);
			assertThat(SamplePostgres
				.rest(sample, "PUT", "/api/products/2", "{\"name\":\"Squared notebook\",\"price\":4.20}")
				.statusCode()).isEqualTo(200);
			assertNotifiedOnce(products, "catalog://products/2", "updated", captured);

			captured = SamplePostgres.captured(sample);
			String created = SamplePostgres.rest(sample, "POST", "/api/products", "{\"name\":\"Ink\",\"price\":6.00}")
				.body();
			long id = Long.parseLong(created.replaceAll(".*\"id\":(\\d+).*", "$1"));
			assertNotifiedOnce(products, "catalog://products/" + id, "created", captured);

			captured = SamplePostgres.captured(sample);
			assertThat(SamplePostgres.rest(sample, "DELETE", "/api/products/" + id, null).statusCode()).isEqualTo(204);
			assertNotifiedOnce(products, "catalog://products/" + id, "deleted", captured);
		}
	}

	@Test
	void anotherWritersInsertUpdateAndDeleteAreProductEventsWithTheirValues() {
		// The capture records keys only: the sample reads the values once it reads a
		// change, so each write waits for its event here (see CapturedProductEvents).
		McpEventPoll all = mcp.pollEvents("catalog.product.changed", Map.of());
		McpEventPoll expensive = mcp.pollEvents("catalog.product.changed", Map.of("minPrice", 10));
		long id = database.insert("Desk pad", "18.00");
		assertThat(nextEvent(all)).isEqualTo(id + " Desk pad 18 created");
		assertThat(database.execute("update %s.product set price = 2.50 where id = ?", id)).isOne();
		assertThat(nextEvent(all)).isEqualTo(id + " Desk pad 2.5 updated");
		assertThat(database.execute("delete from %s.product where id = ?", id)).isOne();
		// A deletion carries the values last seen.
		assertThat(nextEvent(all)).isEqualTo(id + " Desk pad 2.5 deleted");

		List<String> matching = new ArrayList<>();
		expensive.next().forEach((data) -> matching.add(describe(data)));
		assertThat(matching).containsExactly(id + " Desk pad 18 created");
	}

	@Test
	void eachWriteThroughTheRestApiIsOneProductEventNotTwo() throws Exception {
		McpEventPoll poll = mcp.pollEvents("catalog.product.changed", Map.of("id", 3));
		assertThat(SamplePostgres.rest(sample, "PUT", "/api/products/3", "{\"name\":\"Fountain pen\",\"price\":13.00}")
			.statusCode()).isEqualTo(200);
		// Another writer's change after it: once its event is in, the capture has read
		// the
		// REST write's too, and an event published by the REST path would be in already.
		assertThat(database.execute("update %s.product set price = 14.00 where id = 3")).isOne();

		List<String> events = new ArrayList<>();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			poll.next().forEach((data) -> events.add(describe(data)));
			return events.stream().anyMatch((event) -> event.contains(" 14 "));
		});
		assertThat(events).containsExactly("3 Fountain pen 13 updated", "3 Fountain pen 14 updated");
	}

	/** Waits for the one next event of a poll. */
	private static String nextEvent(McpEventPoll poll) {
		List<String> events = new ArrayList<>();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			poll.next().forEach((data) -> events.add(describe(data)));
			return !events.isEmpty();
		});
		assertThat(events).hasSize(1);
		return events.get(0);
	}

	private static String describe(JsonNode data) {
		return data.get("id").asLong() + " " + data.get("name").stringValue() + " "
				+ data.get("price").decimalValue().stripTrailingZeros().toPlainString() + " "
				+ data.get("change").stringValue();
	}

	@Test
	void theProfileCreatesTheCatalogueOnceEvenWithTwoNodesStartingAtOnceAndARestartKeepsIt() throws Exception {
		try (SamplePostgres empty = new SamplePostgres()) {
			CompletableFuture<ConfigurableApplicationContext> first = CompletableFuture
				.supplyAsync(() -> empty.start("postgres"));
			CompletableFuture<ConfigurableApplicationContext> second = CompletableFuture
				.supplyAsync(() -> empty.start("postgres"));
			try (ConfigurableApplicationContext one = first.join();
					ConfigurableApplicationContext two = second.join()) {
				assertThat(empty.queryLongs("select id from %s.product order by id")).containsExactly(1L, 2L, 3L, 4L,
						5L);
				assertThat(SamplePostgres.rest(two, "GET", "/api/products", null).body()).contains("\"Monitor stand\"");
			}
			try (ConfigurableApplicationContext restarted = empty.start("postgres")) {
				assertThat(empty.queryLongs("select id from %s.product order by id")).containsExactly(1L, 2L, 3L, 4L,
						5L);
				// The identity column starts above the seeded products.
				assertThat(empty.insert("Paper clips", "1.00")).isEqualTo(6L);
			}
		}
	}

	/**
	 * The next notification is this change, and no second one follows once the capture
	 * has read the change (an event published besides it would already have been
	 * delivered).
	 */
	private static void assertNotifiedOnce(McpSubscription subscription, String uri, String change,
			double capturedBefore) {
		McpNotification notification = subscription.awaitNotification();
		assertThat(notification.uri()).isEqualTo(uri);
		assertThat(notification.meta()).containsEntry("change", change);
		await().atMost(Duration.ofSeconds(10)).until(() -> SamplePostgres.captured(sample) >= capturedBefore + 1);
		subscription.assertNoNotification(SECOND_NOTIFICATION_WINDOW);
	}

}
