package io.github.mcpsubscriptions.capture.postgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.github.mcpsubscriptions.capture.postgres.PostgresCaptureDatabase.Column;
import io.github.mcpsubscriptions.capture.postgres.PostgresCaptureDatabase.Names;
import io.github.mcpsubscriptions.capture.postgres.PostgresCaptureDatabase.Table;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQL that {@code docs/changes-from-the-database.md} shows for installing the capture
 * by hand is the SQL the capture installs: the block after the marker is compared with
 * it, and the SQL is written to {@code target/generated-docs/capture-install.sql} on
 * every run.
 */
class InstallSqlDocumentationTests {

	private static final Path PAGE = Path.of("..", "docs", "changes-from-the-database.md");

	private static final String MARKER = "<!-- capture-install-sql";

	/** The change table's names in the schema public. */
	static final Names EXAMPLE_NAMES = new Names("public", "public.mcp_change", "public.mcp_change_cursor",
			"mcp_change");

	/**
	 * {@code product=catalog://products/{id}}, its {@code id} a {@code bigint}, its oid
	 * 16385.
	 */
	static final Table EXAMPLE_TABLE = new Table("public.product", "product", 16385, false,
			List.of(new Column("id", "id", 20, "int8", null)));

	@Test
	void thePageShowsTheSqlTheCaptureInstalls() throws IOException {
		List<String> statements = PostgresCaptureDatabase.installSql(EXAMPLE_NAMES, List.of(EXAMPLE_TABLE));
		String sql = String.join(";\n\n", statements) + ";\n";
		Path generated = Path.of("target", "generated-docs", "capture-install.sql");
		Files.createDirectories(generated.getParent());
		Files.writeString(generated, sql);
		String page = Files.readString(PAGE);
		int marker = page.indexOf(MARKER);
		assertThat(marker).as("the page has the marker").isNotNegative();
		int start = page.indexOf("```sql\n", marker) + "```sql\n".length();
		int end = page.indexOf("```", start);
		assertThat(page.substring(start, end))
			.as("the install SQL in %s differs from what the capture installs; see %s", PAGE, generated)
			.isEqualTo(sql);
	}

}
