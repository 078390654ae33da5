package io.github.mcpsubscriptions.capture;

import io.github.mcpsubscriptions.notification.ResourceChange;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.capture.CaptureNodes.recorded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Rows of the change table that the capture's own trigger never writes, but its owner
 * can: each is rejected alone (counted, logged once, passed), and every other change is
 * delivered; rows of tables that are not captured are not read at all.
 */
@ExtendWith(OutputCaptureExtension.class)
class CapturedKeyFaultTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aKeyThatCannotBeReadIsRejectedAloneAndTheOtherChangesAreDelivered(CapturedOutput output) {
		ConfigurableApplicationContext node = this.nodes.start();
		String product = this.nodes.schema() + ".product";
		this.nodes.sql("insert into product values (1, 'before', 1)",
				// Deeper than any JSON parser's default limit.
				"insert into mcp_change (tbl, op, new_key) values ('" + product + "', 'I', ('{\"id\": '"
						+ " || repeat('[', 2000) || '1' || repeat(']', 2000) || '}')::jsonb)",
				// A string of 20 M characters, a number of 1,000 digits, not an object.
				"insert into mcp_change (tbl, op, new_key) values ('" + product
						+ "', 'I', jsonb_build_object('id', repeat('x', 20000000)))",
				"insert into mcp_change (tbl, op, new_key) values ('" + product
						+ "', 'I', ('{\"id\": ' || repeat('9', 1000)" + " || '}')::jsonb)",
				"insert into mcp_change (tbl, op, new_key) values ('" + product + "', 'U', '[1, 2]')",
				"insert into mcp_change (tbl, op, new_key) values ('" + product + "', 'I', '{\"id\": {\"a\": 1}}')",
				"insert into product values (2, 'after', 1)");
		this.nodes.awaitRecorded(node, 2);
		assertThat(recorded(node)).extracting(ResourceChange::uri)
			.containsExactly("catalog://products/1", "catalog://products/2");
		MeterRegistry meters = node.getBean(MeterRegistry.class);
		await().atMost(ChangeCaptureTests.WAIT)
			.untilAsserted(() -> assertThat(meters.get("mcp.capture.rejected").functionCounter().count()).isEqualTo(5));
		assertThat(node.getBean(CaptureStats.class).getErrors()).as("no read failed").isZero();
		this.nodes.sql("insert into product values (3, 'later', 1)");
		this.nodes.awaitRecorded(node, 3);
		assertThat(output.toString().split("cannot be read", -1)).as("logged once: %s", output).hasSize(2);
		assertThat(output).doesNotContain("StreamConstraintsException", "\tat tools.jackson");
	}

	@Test
	void rowsOfATableThatIsNotCapturedAreNotRead() {
		ConfigurableApplicationContext node = this.nodes.start();
		this.nodes.sql("insert into mcp_change (tbl, op, new_key) values ('" + this.nodes.schema()
				+ ".elsewhere', 'I', ('{\"id\": ' || repeat('[', 2000) || '1' || repeat(']', 2000) || '}')::jsonb)",
				"insert into product values (1, 'tea', 1)");
		this.nodes.awaitRecorded(node, 1);
		assertThat(recorded(node)).extracting(ResourceChange::uri).containsExactly("catalog://products/1");
		assertThat(node.getBean(CaptureStats.class).getRejected()).isZero();
		assertThat(node.getBean(CaptureStats.class).getErrors()).isZero();
	}

}
