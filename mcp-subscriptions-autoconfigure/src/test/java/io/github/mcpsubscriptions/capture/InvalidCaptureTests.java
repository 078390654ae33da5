package io.github.mcpsubscriptions.capture;

import io.github.mcpsubscriptions.test.McpTestApplication;
import org.h2.Driver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A capture that does not fit the database stops the start-up, and the failure analysis
 * names each mistake.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidCaptureTests {

	private final CaptureNodes nodes = new CaptureNodes();

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void anUnknownTableAndAVariableThatIsNoColumnAreReportedAtStartUp(CapturedOutput output) {
		assertThatException().isThrownBy(() -> this.nodes.start("mcp.capture.tables.product=catalog://products/{sku}",
				"mcp.capture.tables.nosuch=catalog://nosuch/{id}"));
		assertThat(output).contains("APPLICATION FAILED TO START",
				"The MCP change capture (mcp.capture.*) is configured wrongly",
				"variable {sku} of \"catalog://products/{sku}\" is not a column of product; it has id, name, price",
				"table nosuch does not exist", "Correct mcp.capture.tables");
		assertThat(this.nodes.queryLong("select count(*) from information_schema.tables where table_schema = '"
				+ this.nodes.schema() + "' and table_name = 'mcp_change'"))
			.as("nothing installed")
			.isZero();
	}

	@Test
	void anInvalidTemplateIsReportedAtStartUp(CapturedOutput output) {
		assertThatException().isThrownBy(() -> this.nodes.start("mcp.capture.tables.product=catalog://products/{id"));
		assertThat(output).contains("APPLICATION FAILED TO START",
				"the URI template \"catalog://products/{id\" of table product is invalid");
	}

	@Test
	void aDatabaseOtherThanPostgresqlIsReportedAtStartUp(CapturedOutput output) {
		SimpleDriverDataSource h2 = new SimpleDriverDataSource(new Driver(), "jdbc:h2:mem:capture", "sa", "");
		SpringApplication application = new SpringApplication(McpTestApplication.class, CaptureNodes.Resources.class);
		application.addInitializers((context) -> context.getBeanFactory().registerSingleton("dataSource", h2));
		assertThatException().isThrownBy(() -> application.run("--server.port=0", "--mcp.capture.enabled=true",
				"--mcp.capture.tables.product=catalog://products/{id}"));
		assertThat(output).contains("APPLICATION FAILED TO START", "the database is H2",
				"the change capture works on PostgreSQL only");
	}

}
