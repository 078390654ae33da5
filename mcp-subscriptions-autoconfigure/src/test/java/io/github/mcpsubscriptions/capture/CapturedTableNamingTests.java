package io.github.mcpsubscriptions.capture;

import io.github.mcpsubscriptions.notification.ResourceChange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.capture.CaptureNodes.recorded;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A captured table is named in the settings as in SQL: a mixed-case table, quoted inside
 * the key's brackets, is the table captured, not its lower-case namesake.
 */
class CapturedTableNamingTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aMixedCaseTableQuotedInTheSettingsIsCaptured() {
		this.nodes.sql("create table \"Orders\" (id int primary key)", "create table orders (id int primary key)");
		ConfigurableApplicationContext node = this.nodes.start("mcp.capture.tables[\"Orders\"]=other://things/{id}");
		this.nodes.sql("insert into orders values (1)", "insert into \"Orders\" values (2)");
		this.nodes.awaitRecorded(node, 1);
		assertThat(recorded(node)).extracting(ResourceChange::uri).containsExactly("other://things/2");
	}

}
