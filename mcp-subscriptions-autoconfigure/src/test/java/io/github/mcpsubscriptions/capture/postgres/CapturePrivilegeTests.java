package io.github.mcpsubscriptions.capture.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.capture.CapturedRow;
import io.github.mcpsubscriptions.capture.CapturedTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.github.mcpsubscriptions.capture.postgres.CaptureSchema.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the installed capture lets other roles of the database do, on a real PostgreSQL:
 * nothing of the installer's. A role with only PostgreSQL's defaults cannot run code as
 * the installer, cannot attach the capture's functions, and cannot read or write the
 * change and cursor tables; a writer of a captured table needs nothing new.
 */
class CapturePrivilegeTests {

	private final CaptureSchema schema = new CaptureSchema();

	private final CapturedTable product = table("product", "catalog://products/{id}");

	@AfterEach
	void close() {
		this.schema.close();
	}

	@Test
	void aRoleWithOnlyTheDefaultsCannotRunItsCastsAsTheInstallerNorForgeAChange() throws Exception {
		this.schema.sql("create table product (id bigint primary key, name text)");
		this.schema.install(this.product);
		String intruder = this.schema.role("intruder");
		// As the schema public is for every role.
		this.schema.sql("grant usage on schema " + this.schema.schema() + " to " + intruder);
		List<String> functions = captureFunctions();
		assertThat(functions).isNotEmpty();
		List<String> attached = new ArrayList<>();
		try (Connection connection = this.schema.connectAs(intruder);
				Statement statement = connection.createStatement()) {
			statement.execute("create type pg_temp.mood as enum ('ok')");
			// Runs as whoever converts the value: it forges a change and says who it ran
			// as.
			String forge = "begin insert into " + this.schema.schema() + ".mcp_change (tbl, op, new_key) values ('"
					+ this.schema.schema() + ".product', 'I', '{\"id\": 999999}'); "
					+ "perform set_config('mcp.test.ran_as', current_user, false); return %s; end";
			statement.execute("create function pg_temp.mood_json(pg_temp.mood) returns json language plpgsql as $f$"
					+ forge.formatted("'\"ok\"'::json") + "$f$");
			statement.execute("create function pg_temp.mood_jsonb(pg_temp.mood) returns jsonb language plpgsql as $f$"
					+ forge.formatted("'\"ok\"'::jsonb") + "$f$");
			statement.execute("create function pg_temp.mood_text(pg_temp.mood) returns text language plpgsql as $f$"
					+ forge.formatted("'ok'") + "$f$");
			statement.execute("create cast (pg_temp.mood as json) with function pg_temp.mood_json(pg_temp.mood)");
			statement.execute("create cast (pg_temp.mood as jsonb) with function pg_temp.mood_jsonb(pg_temp.mood)");
			statement.execute("create cast (pg_temp.mood as text) with function pg_temp.mood_text(pg_temp.mood)");
			statement.execute("create temporary table product (id bigint, mood pg_temp.mood)");
			for (String function : functions) {
				try {
					statement.execute("create trigger intruder_" + attached.size()
							+ " after insert on pg_temp.product for each row execute function " + function + "('id')");
					attached.add(function);
				}
				catch (SQLException ex) {
					assertThat(ex.getSQLState()).as("refused for want of EXECUTE: %s", ex.getMessage())
						.isEqualTo("42501");
				}
			}
			try {
				statement.execute("insert into pg_temp.product values (1, 'ok')");
			}
			catch (SQLException ex) {
				// A function attached to a table it does not capture refuses to run.
			}
			assertThat(ranAs(statement)).as("no cast of the intruder ran as another role").isIn(null, "", intruder);
			assertThatExceptionOfType(SQLException.class)
				.isThrownBy(() -> statement
					.execute("insert into " + this.schema.schema() + ".mcp_change (tbl, op, new_key) values ('"
							+ this.schema.schema() + ".product', 'I', '{\"id\": 999999}')"))
				.satisfies((ex) -> assertThat(ex.getSQLState()).isEqualTo("42501"));
			assertThatExceptionOfType(SQLException.class)
				.isThrownBy(
						() -> statement.executeQuery("select * from " + this.schema.schema() + ".mcp_change_cursor"))
				.satisfies((ex) -> assertThat(ex.getSQLState()).isEqualTo("42501"));
		}
		assertThat(attached).as("no capture function can be attached by a role that is not its owner").isEmpty();
		assertThat(this.schema.rows()).as("no change was recorded, none forged").isEmpty();
		assertThat(this.schema.queryLong("select count(*) from mcp_change")).isZero();
	}

	@Test
	void theCaptureFunctionRefusesToRunForATableItDoesNotCapture() throws Exception {
		this.schema.sql("create table product (id bigint primary key)", "create table other (id bigint primary key)");
		this.schema.install(this.product);
		List<String> functions = captureFunctions();
		assertThat(functions).hasSize(1);
		// Even its owner cannot make it record another table's rows as the captured
		// table's.
		this.schema.sql("create trigger misplaced after insert on other for each row execute function "
				+ functions.get(0) + "()");
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.schema.sql("insert into other values (999999)"))
			.withMessageContaining("captures " + this.schema.schema() + ".product only");
		this.schema.sql("insert into product values (1)");
		assertThat(this.schema.rows()).extracting(CapturedRow::newValues).containsExactly(Map.of("id", "1"));
	}

	@Test
	void aWriterOfACapturedTableNeedsNoPrivilegeBeyondItsWrite() throws Exception {
		this.schema.sql("create table product (id bigint primary key, name text)");
		this.schema.install(this.product);
		String writer = this.schema.role("writer");
		this.schema.sql("grant usage on schema " + this.schema.schema() + " to " + writer,
				"grant select, insert, update, delete on product to " + writer);
		try (Connection connection = this.schema.connectAs(writer);
				Statement statement = connection.createStatement()) {
			// Firing a trigger checks no privilege on its function: only creating one
			// does.
			statement.execute("insert into product values (1, 'tea')");
			statement.execute("update product set name = 'green tea' where id = 1");
			statement.execute("delete from product where id = 1");
		}
		assertThat(this.schema.rows()).extracting(CapturedRow::operation)
			.containsExactly(CapturedRow.Operation.INSERT, CapturedRow.Operation.UPDATE, CapturedRow.Operation.DELETE);
	}

	@Test
	void publicHasNoPrivilegeOnTheChangeTablesNorTheFunctions() throws Exception {
		this.schema.sql("create table product (id bigint primary key)");
		// As a database whose default privileges grant every new table to PUBLIC.
		this.schema.sql("alter default privileges in schema " + this.schema.schema() + " grant all on tables to public",
				"alter default privileges in schema " + this.schema.schema() + " grant all on sequences to public");
		try {
			this.schema.install(this.product);
		}
		finally {
			this.schema.sql(
					"alter default privileges in schema " + this.schema.schema() + " revoke all on tables from public",
					"alter default privileges in schema " + this.schema.schema()
							+ " revoke all on sequences from public");
		}
		assertThat(this.schema.queryLong("select count(*) from pg_class c, aclexplode(c.relacl) a "
				+ "where c.relnamespace = '" + this.schema.schema() + "'::regnamespace and c.relkind = 'r' "
				+ "and c.relname like 'mcp_change%' and a.grantee = 0"))
			.as("privileges of PUBLIC on the change table and the cursor table")
			.isZero();
		assertThat(this.schema.queryLong("select count(*) from pg_proc p where p.pronamespace = '"
				+ this.schema.schema() + "'::regnamespace and p.prorettype = 'trigger'::regtype "
				+ "and (p.proacl is null or exists (select 1 from aclexplode(p.proacl) a where a.grantee = 0))"))
			.as("capture functions executable by PUBLIC")
			.isZero();
	}

	private static String ranAs(Statement statement) throws SQLException {
		try (ResultSet result = statement.executeQuery("select current_setting('mcp.test.ran_as', true)")) {
			result.next();
			return result.getString(1);
		}
	}

	/**
	 * The trigger functions the capture installed in the schema.
	 */
	private List<String> captureFunctions() throws SQLException {
		List<String> functions = new ArrayList<>();
		try (Connection connection = this.schema.connectAs("postgres");
				Statement statement = connection.createStatement();
				ResultSet result = statement
					.executeQuery("select quote_ident(n.nspname) || '.' || quote_ident(p.proname) "
							+ "from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = '"
							+ this.schema.schema() + "' and p.prorettype = 'trigger'::regtype order by 1")) {
			while (result.next()) {
				functions.add(result.getString(1));
			}
		}
		return functions;
	}

}
