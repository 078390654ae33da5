package io.github.mcpsubscriptions.capture.postgres;

import java.sql.Connection;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.capture.CapturedRow;
import io.github.mcpsubscriptions.capture.CapturedTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.github.mcpsubscriptions.capture.postgres.CaptureSchema.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names from the settings reach the installed SQL as identifiers, never as SQL: a table
 * is named as PostgreSQL names it (quoted, its exact case; unquoted, folded to lower
 * case), and a name full of SQL is only a name.
 */
class IdentifierQuotingTests {

	private final CaptureSchema schema = new CaptureSchema();

	@AfterEach
	void close() {
		this.schema.close();
	}

	@Test
	void aMixedCaseTableNamedQuotedIsTheOneCaptured() throws Exception {
		this.schema.sql("create table \"Orders\" (\"orderNo\" int primary key)",
				"create table orders (\"orderNo\" int)");
		CapturedTable orders = table("\"Orders\"", "shop://orders/{orderNo}");
		assertThat(this.schema.check(orders)).isEmpty();
		this.schema.install(orders);
		this.schema.sql("insert into orders values (1)", "insert into \"Orders\" values (2)");
		assertThat(this.schema.rows()).singleElement().satisfies((row) -> {
			assertThat(row.table()).isEqualTo(this.schema.schema() + ".\"Orders\"");
			assertThat(row.newValues()).isEqualTo(Map.of("orderNo", "2"));
		});
	}

	@Test
	void anUnquotedNameIsFoldedToLowerCaseAsPostgresqlFoldsIt() throws Exception {
		this.schema.sql("create table orders (id int primary key)");
		CapturedTable orders = table("Orders", "shop://orders/{id}");
		assertThat(this.schema.check(orders)).isEmpty();
		this.schema.install(orders);
		this.schema.sql("insert into orders values (1)");
		assertThat(this.schema.rows()).extracting(CapturedRow::table).containsExactly(this.schema.schema() + ".orders");
	}

	@Test
	void aNameMadeOfSqlIsCapturedAsAName() throws Exception {
		String name = "p\" execute function f(); drop table v; -- $$ 'x";
		String quoted = "\"" + name.replace("\"", "\"\"") + "\"";
		this.schema.sql("create table v (id int)", "create table p (id int)",
				"create table " + quoted + " (\"Id\" int primary key, \"x.y\" text)");
		CapturedTable odd = table(quoted, "odd://rows/{Id}/{x.y}");
		assertThat(this.schema.check(odd)).isEmpty();
		this.schema.install(odd);
		this.schema.sql("insert into " + quoted + " values (7, 'q')");
		assertThat(this.schema.queryLong(
				"select count(*) from pg_tables where schemaname = '" + this.schema.schema() + "' and tablename = 'v'"))
			.as("v is still there")
			.isOne();
		assertThat(this.schema.rows()).singleElement()
			.satisfies((row) -> assertThat(row.newValues()).isEqualTo(Map.of("Id", "7", "x.y", "q")));
	}

	@Test
	void aChangeTableNameThatIsNotPlainIsRefused() throws Exception {
		this.schema.sql("create table product (id int primary key)");
		PostgresCaptureDatabase capture = new PostgresCaptureDatabase("mcp_change; drop table product");
		try (Connection connection = this.schema.connectAs("postgres")) {
			assertThat(capture.check(connection, List.of(table("product", "catalog://products/{id}"))))
				.anySatisfy((problem) -> assertThat(problem).contains("is not a plain table name"));
		}
	}

}
