package io.github.mcpsubscriptions.capture;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.WAIT;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.assertNotified;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.listen;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The change capture under faults, on a real PostgreSQL: its connection ended by the
 * server, reconnection refused for a while, changes pruned before it read them.
 */
class ChangeCaptureFaultTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aTerminatedCaptureConnectionReconnectsByItselfAndLosesNothing() throws Exception {
		ConfigurableApplicationContext node = this.nodes.start();
		try (SseStream stream = listen(node, "catalog://products")) {
			this.nodes.sql("insert into product values (1, 'tea', 1)");
			assertNotified(stream, "catalog://products/1", "created");
			assertThat(this.nodes.terminateReader()).isEqualTo(1);
			this.nodes.sql("insert into product values (2, 'committed while reconnecting', 1)");
			assertNotified(stream, "catalog://products/2", "created");
			this.nodes.sql("update product set price = 2 where id = 1");
			assertNotified(stream, "catalog://products/1", "updated");
			assertThat(stream.nextMessage(Duration.ofMillis(500))).isNull();
		}
		assertThat(node.getBean(CaptureStats.class).getErrors()).isPositive();
	}

	@Test
	void theHealthIsDownWhileTheCaptureCannotConnectAndWhatWasCommittedMeanwhileIsDelivered() throws Exception {
		ConfigurableApplicationContext node = this.nodes.start(new Class<?>[] { Gated.class });
		Gate gate = node.getBean(Gate.class);
		CaptureHealthIndicator health = node.getBean(CaptureHealthIndicator.class);
		try (SseStream stream = listen(node, "catalog://products")) {
			this.nodes.sql("insert into product values (1, 'tea', 1)");
			assertNotified(stream, "catalog://products/1", "created");
			// UP once the read that published it has ended (the reader counts a read as
			// served after publishing), which may be just after the notification arrived.
			await().atMost(WAIT).until(() -> health.health(true).getStatus().equals(Status.UP));
			gate.open = false;
			assertThat(this.nodes.terminateReader()).isEqualTo(1);
			await().atMost(WAIT).until(() -> health.health(true).getStatus().equals(Status.DOWN));
			this.nodes.sql("insert into product values (2, 'while down', 1)");
			this.nodes.sql("delete from product where id = 1");
			assertThat(stream.nextMessage(Duration.ofMillis(300))).as("nothing while down").isNull();
			gate.open = true;
			await().atMost(WAIT).until(() -> health.health(true).getStatus().equals(Status.UP));
			assertNotified(stream, "catalog://products/2", "created");
			assertNotified(stream, "catalog://products/1", "deleted");
		}
	}

	@Test
	void changesPrunedBeforeTheCaptureReadThemResyncTheSubscribersOfTheCapturedResources() throws Exception {
		ConfigurableApplicationContext node = this.nodes.start(new Class<?>[] { Gated.class });
		Gate gate = node.getBean(Gate.class);
		try (SseStream products = listen(node, "catalog://products/{id}")) {
			this.nodes.sql("insert into product values (1, 'tea', 1)");
			assertNotified(products, "catalog://products/1", "created");
			gate.open = false;
			assertThat(this.nodes.terminateReader()).isEqualTo(1);
			this.nodes.sql("insert into product values (2, 'lost', 1)");
			// Older than the retention (24 hours) by the time the capture reads again.
			this.nodes.sql("update mcp_change set at = at - interval '2 days' where new_key ->> 'id' = '2'");
			gate.open = true;
			SseEvent event = products.nextMessage(WAIT);
			assertThat(event).as("a resync").isNotNull();
			JsonNode params = json(event.data()).get("params");
			assertThat(params.get("uri").stringValue()).as("the collection stands for the template")
				.isEqualTo("catalog://products");
			assertThat(params.get("_meta").get(NotificationEngine.RESYNC_META).booleanValue()).isTrue();
			this.nodes.sql("insert into product values (3, 'after', 1)");
			assertNotified(products, "catalog://products/3", "created");
		}
		assertThat(node.getBean(CaptureStats.class).getResyncs()).isEqualTo(1);
		assertThat(this.nodes.queryLong("select count(*) from mcp_change where new_key ->> 'id' = '2'")).as("pruned")
			.isZero();
	}

	@Test
	void aChangeCommittedAfterStartUpButBeforeTheReaderFirstReadsIsDelivered() {
		// The start-up's check takes the one connection the gate admits: the reader
		// cannot
		// connect until the test opens the gate again.
		ConfigurableApplicationContext node = this.nodes.start(new Class<?>[] { Gated.class }, "test.gate.opens=1");
		Gate gate = node.getBean(Gate.class);
		this.nodes.sql("insert into product values (1, 'before the first read', 1)");
		gate.opens.set(Integer.MAX_VALUE);
		this.nodes.awaitRecorded(node, 1);
		assertThat(CaptureNodes.recorded(node)).extracting(ResourceChange::uri).containsExactly("catalog://products/1");
	}

	/**
	 * Refuses the capture's connections while closed, as a database that does not accept
	 * connections would.
	 */
	static final class Gate {

		volatile boolean open = true;

		/** How many connections may be opened before the gate closes by itself. */
		final AtomicInteger opens;

		Gate(int opens) {
			this.opens = new AtomicInteger(opens);
		}

		boolean admit() {
			return this.open && this.opens.getAndDecrement() > 0;
		}

	}

	static class Gated {

		@Bean
		Gate gate(@Value("${test.gate.opens:2147483647}") int opens) {
			return new Gate(opens);
		}

		@Bean
		CaptureConnections mcpCaptureConnections(DataSource dataSource, CaptureDatabase database, Gate gate)
				throws SQLException {
			CaptureConnections connections = CaptureConnections.derivedFrom(dataSource,
					database.connectionProperties(ChangeCapture.APPLICATION_NAME));
			return () -> {
				if (!gate.admit()) {
					throw new SQLException("The test refuses the capture's connection");
				}
				return connections.open();
			};
		}

	}

}
