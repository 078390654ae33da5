package io.github.mcpsubscriptions.capture;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.WAIT;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.assertNotified;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.listen;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A transaction left open holds the capture's horizon, and with it every captured change
 * committed after it began: the capture says so (a meter, one WARN naming the backend,
 * its health) instead of standing still with every indicator green.
 */
@ExtendWith(OutputCaptureExtension.class)
class ChangeCaptureHeldTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aTransactionLeftOpenIsMeteredNamedOnceInAWarnAndReportedDownUntilItEnds(CapturedOutput output)
			throws Exception {
		ConfigurableApplicationContext node = this.nodes.start("mcp.capture.hold-warning-threshold=1s");
		CaptureHealthIndicator health = node.getBean(CaptureHealthIndicator.class);
		MeterRegistry meters = node.getBean(MeterRegistry.class);
		try (SseStream stream = listen(node, "catalog://products")) {
			this.nodes.sql("insert into product values (1, 'before', 1)");
			assertNotified(stream, "catalog://products/1", "created");
			long pid;
			try (Connection holder = this.nodes.transaction(); Statement statement = holder.createStatement()) {
				statement.execute("set application_name = 'left-open'");
				try (ResultSet result = statement.executeQuery("select pg_backend_pid()")) {
					result.next();
					pid = result.getLong(1);
				}
				// Takes a transaction id, and then does nothing: "idle in transaction".
				statement.execute("select pg_current_xact_id()");
				this.nodes.sql("update product set price = 2 where id = 1");
				await().atMost(WAIT).until(() -> health.health(true).getStatus().equals(Status.DOWN));
				Health held = health.health(true);
				assertThat(held.getDetails()).containsEntry("held", true);
				assertThat(held.getDetails().get("holder")).isInstanceOfSatisfying(Map.class, (holderDetails) -> {
					assertThat(holderDetails.get("pid")).isEqualTo((int) pid);
					assertThat(holderDetails.get("applicationName")).isEqualTo("left-open");
					assertThat(holderDetails.get("state")).isEqualTo("idle in transaction");
				});
				assertThat(meters.get("mcp.capture.held").gauge().value()).isPositive();
				await().atMost(WAIT).until(() -> output.getOut().contains("pid " + pid));
				assertThat(output.getOut()).contains("application_name 'left-open'");
				assertThat(stream.nextMessage(Duration.ofMillis(300))).as("held back").isNull();
				holder.commit();
			}
			assertNotified(stream, "catalog://products/1", "updated");
			await().atMost(WAIT).until(() -> health.health(true).getStatus().equals(Status.UP));
			assertThat(meters.get("mcp.capture.held").gauge().value()).isZero();
			assertThat(output.getOut().split("pid " + pid + ",", -1)).as("one WARN per holder, not one per poll")
				.hasSize(2);
		}
	}

}
