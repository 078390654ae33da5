package io.github.mcpsubscriptions.capture;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.capture.CaptureNodes.client;
import static io.github.mcpsubscriptions.capture.CaptureNodes.recorded;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * The change capture on a real PostgreSQL: a subscriber over a real port hears of every
 * committed insert, update and delete of a captured table, whoever wrote it, once, in
 * commit-safe order, and of nothing rolled back.
 */
class ChangeCaptureTests {

	static final Duration WAIT = Duration.ofSeconds(10);

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void everyCommittedChangeKindNotifiesOnceAndARollbackNothing() throws Exception {
		ConfigurableApplicationContext node = this.nodes.start("management.endpoint.health.show-details=always");
		try (SseStream stream = listen(node, "catalog://products")) {
			this.nodes.sql("insert into product values (1, 'tea', 3.50)");
			assertNotified(stream, "catalog://products/1", "created");
			this.nodes.sql("update product set price = 9.99 where id = 1");
			assertNotified(stream, "catalog://products/1", "updated");
			try (Connection connection = this.nodes.transaction(); Statement statement = connection.createStatement()) {
				statement.execute("insert into product values (2, 'never', 1)");
				statement.execute("update product set price = 0 where id = 1");
				statement.execute("delete from product where id = 1");
				connection.rollback();
			}
			// A change of the template's column moves the resource: deleted, then
			// created.
			this.nodes.sql("update product set id = 3 where id = 1");
			assertNotified(stream, "catalog://products/1", "deleted");
			assertNotified(stream, "catalog://products/3", "created");
			this.nodes.sql("delete from product where id = 3");
			assertNotified(stream, "catalog://products/3", "deleted");
			assertThat(stream.nextMessage(Duration.ofMillis(500))).as("once each, nothing rolled back").isNull();
		}
		HttpResponse<String> health = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(client(node).endpoint().resolve("/actuator/health/mcpCapture")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(json(health.body()).get("status").stringValue()).isEqualTo("UP");
		assertThat(json(health.body()).get("details").get("reading").booleanValue()).isTrue();
		MeterRegistry meters = node.getBean(MeterRegistry.class);
		assertThat(meters.get("mcp.capture.changes").functionCounter().count()).isEqualTo(5);
		assertThat(meters.get("mcp.capture.lag").timer().count()).isEqualTo(5);
		assertThat(meters.get("mcp.capture.rejected").functionCounter().count()).isZero();
	}

	@Test
	void aTransactionThatCommitsLastWithTheLowerIdIsNotSkipped() throws Exception {
		ConfigurableApplicationContext node = this.nodes.start();
		List<ResourceChange> changes = recorded(node);
		try (Connection first = this.nodes.transaction(); Statement statement = first.createStatement()) {
			// The first transaction takes the lower transaction id and change-row id...
			statement.execute("insert into product values (1, 'first', 1)");
			// ...and commits after the second: a cursor on the row id would skip it.
			this.nodes.sql("insert into product values (2, 'second', 2)");
			this.nodes.sql("insert into product values (4, 'third', 2)");
			assertThat(changes).as("nothing after an open transaction is published before it ends").isEmpty();
			first.commit();
		}
		this.nodes.awaitRecorded(node, 3);
		assertThat(changes).extracting(ResourceChange::uri)
			.containsExactly("catalog://products/1", "catalog://products/2", "catalog://products/4");
	}

	@Test
	void anOpenTransactionInAnotherDatabaseOfTheServerDelaysNothing() throws Exception {
		ConfigurableApplicationContext node = this.nodes.start();
		try (Connection other = this.nodes.otherDatabaseTransaction(); Statement statement = other.createStatement()) {
			// Holds the server's xmin back, but cannot write to this database.
			statement.execute("select pg_current_xact_id()");
			this.nodes.sql("insert into product values (1, 'tea', 1)");
			this.nodes.awaitRecorded(node, 1);
			other.rollback();
		}
		assertThat(recorded(node)).extracting(ResourceChange::uri).containsExactly("catalog://products/1");
	}

	@Test
	void aWriterWithNoPrivilegeOnTheChangeTableCanWriteAndIsCaptured() throws Exception {
		ConfigurableApplicationContext node = this.nodes.start();
		String role = "mcp_writer_" + this.nodes.schema().substring(this.nodes.schema().length() - 8);
		this.nodes.sql("create role " + role + " login", "grant usage on schema " + this.nodes.schema() + " to " + role,
				"grant insert on product to " + role);
		try (Connection writer = this.nodes.connectAs(role); Statement statement = writer.createStatement()) {
			statement.execute("insert into product values (1, 'by another role', 1)");
		}
		finally {
			this.nodes.sql("drop owned by " + role, "drop role " + role);
		}
		this.nodes.awaitRecorded(node, 1);
		assertThat(recorded(node)).extracting(ResourceChange::uri).containsExactly("catalog://products/1");
	}

	@Test
	void aChangeCommittedWhileTheApplicationWasDownIsDeliveredWhenItStartsAgain() {
		ConfigurableApplicationContext first = this.nodes.start();
		this.nodes.sql("insert into product values (1, 'before', 1)");
		this.nodes.awaitRecorded(first, 1);
		first.close();
		this.nodes.sql("update product set name = 'while down' where id = 1",
				"insert into product values (2, 'new', 1)");
		ConfigurableApplicationContext second = this.nodes.start();
		this.nodes.awaitRecorded(second, 2);
		assertThat(recorded(second)).extracting(ResourceChange::uri, (change) -> change.attributes().get("change"))
			.containsExactly(tuple("catalog://products/1", "updated"), tuple("catalog://products/2", "created"));
	}

	@Test
	void closingTheApplicationEndsTheCaptureThreadAndReleasesItsLease() {
		ConfigurableApplicationContext node = this.nodes.start();
		this.nodes.sql("insert into product values (1, 'tea', 1)");
		this.nodes.awaitRecorded(node, 1);
		assertThat(captureThreads()).isNotEmpty();
		assertThat(this.nodes.leaseHolders()).isEqualTo(1);
		node.close();
		assertThat(captureThreads()).as("the capture's thread has ended when the context has closed").isEmpty();
		// The server ends the closed connection's session (and its lock) by itself, soon
		// after.
		await().atMost(WAIT).until(() -> this.nodes.leaseHolders() == 0);
	}

	private static List<Thread> captureThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().equals("mcp-change-capture"))
			.toList();
	}

	@Test
	void aRowWhoseUriCannotBeBuiltIsCountedAndSkippedAndTheNextIsDelivered() {
		ConfigurableApplicationContext node = this.nodes.start("mcp.capture.tables.product=catalog://products/{name}");
		this.nodes.sql("insert into product values (1, null, 1)");
		this.nodes.sql("insert into product values (2, null, 1)");
		this.nodes.sql("insert into product values (3, 'tea', 1)");
		this.nodes.awaitRecorded(node, 1);
		assertThat(recorded(node)).extracting(ResourceChange::uri).containsExactly("catalog://products/tea");
		assertThat(node.getBean(MeterRegistry.class).get("mcp.capture.rejected").functionCounter().count())
			.isEqualTo(2);
	}

	@Test
	void anEventForACapturedUriIsNotPublishedASecondTime() {
		ConfigurableApplicationContext node = this.nodes.start();
		// The application's own write publishes an event for the row it committed, and
		// an event for a resource that is not captured.
		this.nodes.sql("insert into product values (1, 'tea', 1)");
		node.publishEvent(new ResourceChangedEvent("catalog://products/1", Map.of("change", "created")));
		node.publishEvent(new ResourceChangedEvent("catalog://products"));
		this.nodes.awaitRecorded(node, 2);
		List<String> uris = new ArrayList<>();
		recorded(node).forEach((change) -> uris.add(change.uri()));
		assertThat(uris).containsExactlyInAnyOrder("catalog://products", "catalog://products/1");
		assertThat(node.getBean(CaptureStats.class).getSkippedEvents()).isEqualTo(1);
	}

	static SseStream listen(ConfigurableApplicationContext node, String uri) throws Exception {
		SseStream stream = client(node).listen("{\"resourceSubscriptions\":[\"" + uri + "\"]}");
		assertThat(stream.response().statusCode()).isEqualTo(200);
		JsonNode ack = json(stream.nextMessage(WAIT).data());
		assertThat(ack.get("method").stringValue()).isEqualTo("notifications/subscriptions/acknowledged");
		return stream;
	}

	static void assertNotified(SseStream stream, String uri, String change) throws InterruptedException {
		SseEvent event = stream.nextMessage(WAIT);
		assertThat(event).as("a notification of %s %s", change, uri).isNotNull();
		JsonNode params = json(event.data()).get("params");
		assertThat(params.get("uri").stringValue()).isEqualTo(uri);
		assertThat(params.get("_meta").get("change").stringValue()).isEqualTo(change);
	}

}
