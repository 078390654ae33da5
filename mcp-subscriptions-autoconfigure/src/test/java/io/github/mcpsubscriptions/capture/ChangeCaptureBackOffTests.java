package io.github.mcpsubscriptions.capture;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A read that fails for good (the change table gone) while connecting works: the capture
 * reconnects with a back-off that grows to its cap, logs the stack trace once and a line
 * per attempt after it, and reads again once the table is back.
 */
@ExtendWith(OutputCaptureExtension.class)
class ChangeCaptureBackOffTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aReadThatKeepsFailingBacksOffExponentiallyAndLogsItsStackTraceOnce(CapturedOutput output) {
		ConfigurableApplicationContext node = this.nodes.start(new Class<?>[] { Counted.class },
				"mcp.capture.max-back-off=3s");
		List<Long> opened = node.getBean(Attempts.class).opened;
		this.nodes.sql("insert into product values (1, 'tea', 1)");
		this.nodes.awaitRecorded(node, 1);
		int before = opened.size();
		this.nodes.sql("alter table mcp_change rename to mcp_change_away");
		await().atMost(Duration.ofSeconds(30)).until(() -> opened.size() >= before + 5);
		List<Long> gaps = new ArrayList<>();
		for (int i = before + 1; i < before + 5; i++) {
			gaps.add((opened.get(i) - opened.get(i - 1)) / 1_000_000);
		}
		assertThat(gaps.get(3)).as("the gaps between attempts grow: %s ms", gaps)
			.isGreaterThanOrEqualTo(1000)
			.isGreaterThan(3 * gaps.get(0));
		assertThat(node.getBean(CaptureHealthIndicator.class).health(true).getStatus())
			.as("down while reads fail, though connecting works")
			.isEqualTo(Status.DOWN);
		assertThat(output.getOut().split("failed to read", -1)).as("the stack trace once").hasSize(2);
		assertThat(output.getOut()).contains("still fails");
		this.nodes.sql("alter table mcp_change_away rename to mcp_change");
		this.nodes.sql("insert into product values (2, 'after', 1)");
		this.nodes.awaitRecorded(node, 2);
		// Logged after the batch is published.
		await().atMost(ChangeCaptureTests.WAIT)
			.until(() -> output.getOut().contains("The MCP change capture reads again after"));
		assertThat(node.getBean(CaptureHealthIndicator.class).health(true).getStatus()).isEqualTo(Status.UP);
	}

	/** When each of the capture's connections was opened ({@link System#nanoTime()}). */
	static final class Attempts {

		final List<Long> opened = new CopyOnWriteArrayList<>();

	}

	static class Counted {

		@Bean
		Attempts attempts() {
			return new Attempts();
		}

		@Bean
		CaptureConnections mcpCaptureConnections(DataSource dataSource, CaptureDatabase database, Attempts attempts)
				throws SQLException {
			CaptureConnections connections = CaptureConnections.derivedFrom(dataSource,
					database.connectionProperties(ChangeCapture.APPLICATION_NAME));
			return () -> {
				attempts.opened.add(System.nanoTime());
				return connections.open();
			};
		}

	}

}
