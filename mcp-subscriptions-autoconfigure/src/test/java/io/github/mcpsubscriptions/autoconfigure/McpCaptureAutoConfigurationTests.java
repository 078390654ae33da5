package io.github.mcpsubscriptions.autoconfigure;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.capture.CapturedUriFilter;
import io.github.mcpsubscriptions.capture.ChangeCapture;
import io.github.mcpsubscriptions.capture.InvalidCaptureException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the change capture is configured: only when asked for, with one data source and
 * the MCP endpoint.
 */
class McpCaptureAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class, McpEndpointAutoConfiguration.class,
				McpCaptureAutoConfiguration.class));

	@Test
	void offUnlessEnabledEvenWithADataSource() {
		this.runner.withBean(DataSource.class, SimpleDriverDataSource::new).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(ChangeCapture.class);
			assertThat(context).doesNotHaveBean(CapturedUriFilter.class);
		});
	}

	@Test
	void backsOffWithoutADataSource() {
		this.runner.withPropertyValues("mcp.capture.enabled=true", "mcp.capture.tables.product=catalog://products/{id}")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(ChangeCapture.class);
			});
	}

	@Test
	void backsOffWhenMcpIsDisabled() {
		this.runner.withBean(DataSource.class, SimpleDriverDataSource::new)
			.withPropertyValues("mcp.enabled=false", "mcp.capture.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(ChangeCapture.class));
	}

	@Test
	void loadsWithoutSpringBootSql() {
		// An application may declare its own DataSource without Boot's JDBC support: the
		// capture's order after database initialization is then moot, not an error.
		this.runner.withBean(DataSource.class, SimpleDriverDataSource::new)
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.sql", "org.postgresql"))
			.withPropertyValues("mcp.capture.enabled=true", "mcp.capture.tables.product=catalog://products/{id}")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidCaptureException.class)
				.hasMessageContaining("the PostgreSQL JDBC driver"));
	}

	@Test
	void enabledWithoutThePostgresqlDriverStopsTheStartUp() {
		this.runner.withBean(DataSource.class, SimpleDriverDataSource::new)
			.withClassLoader(new FilteredClassLoader("org.postgresql"))
			.withPropertyValues("mcp.capture.enabled=true", "mcp.capture.tables.product=catalog://products/{id}")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidCaptureException.class)
					.hasMessageContaining(
							"the PostgreSQL JDBC driver (org.postgresql:postgresql) is not on the class path");
				assertThat(new InvalidCaptureFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
					.contains("The MCP change capture (mcp.capture.*) is configured wrongly");
			});
	}

}
