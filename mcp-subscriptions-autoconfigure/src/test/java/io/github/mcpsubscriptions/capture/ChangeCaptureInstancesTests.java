package io.github.mcpsubscriptions.capture;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.WAIT;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.assertNotified;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.listen;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of one application on one database, without the cluster (a rolling or a
 * blue/green deployment): each reads the captured changes for itself, so the subscribers
 * of each hear every committed change once, whichever node the write went through.
 */
class ChangeCaptureInstancesTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void eachOfTwoInstancesWithoutAClusterHearsEveryCommittedChangeOnce() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start();
		ConfigurableApplicationContext b = this.nodes.start();
		try (SseStream onA = listen(a, "catalog://products"); SseStream onB = listen(b, "catalog://products")) {
			this.nodes.sql("insert into product values (1, 'tea', 1)");
			for (SseStream stream : List.of(onA, onB)) {
				assertNotified(stream, "catalog://products/1", "created");
			}
			// A write through node b, which publishes its own event as well.
			this.nodes.sql("update product set price = 2 where id = 1");
			b.publishEvent(new ResourceChangedEvent("catalog://products/1", Map.of("change", "updated")));
			for (SseStream stream : List.of(onA, onB)) {
				assertNotified(stream, "catalog://products/1", "updated");
				assertThat(stream.nextMessage(Duration.ofMillis(500))).as("once each").isNull();
			}
			// The first node goes (its connection, and whatever lease it held, with it).
			a.close();
			this.nodes.sql("delete from product where id = 1");
			assertNotified(onB, "catalog://products/1", "deleted");
			assertThat(onB.nextMessage(Duration.ofMillis(500))).as("once").isNull();
		}
	}

	@Test
	void aNodeCutOffWhileTheOtherPrunedWhatItHadNotReadResyncsItsSubscribers() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start("mcp.capture.retention=10s");
		ConfigurableApplicationContext b = this.nodes.start(new Class<?>[] { Named.class }, "mcp.capture.retention=10s",
				"test.capture.name=" + name());
		ChangeCaptureFaultTests.Gate gate = b.getBean(ChangeCaptureFaultTests.Gate.class);
		try (SseStream onB = listen(b, "catalog://products/{id}")) {
			this.nodes.sql("insert into product values (1, 'tea', 1)");
			assertNotified(onB, "catalog://products/1", "created");
			gate.open = false;
			assertThat(this.nodes.queryLong("select count(pg_terminate_backend(pid)) from pg_stat_activity "
					+ "where application_name = '" + name() + "'"))
				.isEqualTo(1);
			this.nodes.sql("insert into product values (2, 'lost to b', 1)");
			this.nodes.awaitRecorded(a, 2);
			// Older than the retention: node a, which stores the position, prunes it.
			this.nodes.sql("update mcp_change set at = at - interval '1 day' where new_key ->> 'id' = '2'");
			await().atMost(WAIT)
				.until(() -> this.nodes.queryLong("select count(*) from mcp_change where new_key ->> 'id' = '2'") == 0);
			gate.open = true;
			SseEvent event = onB.nextMessage(WAIT);
			assertThat(event).as("a resync").isNotNull();
			JsonNode params = json(event.data()).get("params");
			assertThat(params.get("uri").stringValue()).isEqualTo("catalog://products");
			assertThat(params.get("_meta").get(NotificationEngine.RESYNC_META).booleanValue()).isTrue();
			this.nodes.sql("insert into product values (3, 'after', 1)");
			assertNotified(onB, "catalog://products/3", "created");
		}
		assertThat(b.getBean(CaptureStats.class).getResyncs()).isEqualTo(1);
	}

	private String name() {
		return "capture-b-" + this.nodes.schema();
	}

	/** Node b's capture connections: a name of their own, and a gate. */
	static class Named {

		@Bean
		ChangeCaptureFaultTests.Gate gate() {
			return new ChangeCaptureFaultTests.Gate(Integer.MAX_VALUE);
		}

		@Bean
		CaptureConnections mcpCaptureConnections(DataSource dataSource, CaptureDatabase database,
				ChangeCaptureFaultTests.Gate gate, @Value("${test.capture.name}") String name) throws SQLException {
			Properties properties = database.connectionProperties(name);
			CaptureConnections connections = CaptureConnections.derivedFrom(dataSource, properties);
			return () -> {
				if (!gate.admit()) {
					throw new SQLException("The test refuses the capture's connection");
				}
				return connections.open();
			};
		}

	}

}
