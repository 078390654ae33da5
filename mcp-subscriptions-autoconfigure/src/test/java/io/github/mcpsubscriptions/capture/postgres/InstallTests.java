package io.github.mcpsubscriptions.capture.postgres;

import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.capture.CapturedRow;
import io.github.mcpsubscriptions.capture.CapturedTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.github.mcpsubscriptions.capture.postgres.CaptureSchema.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The capture's install on a real PostgreSQL: again and again the same, an earlier
 * version's generic function replaced, in SQL that PostgreSQL 13 runs; and what the check
 * refuses before anything is installed.
 */
class InstallTests {

	private final CaptureSchema schema = new CaptureSchema();

	private final CapturedTable product = table("product", "catalog://products/{id}");

	@AfterEach
	void close() {
		this.schema.close();
	}

	@Test
	void installingTwiceLeavesOneTriggerAndOneFunctionPerTable() throws Exception {
		this.schema.sql("create table product (id bigint primary key)", "create table \"Item\" (id int primary key)");
		CapturedTable item = table("\"Item\"", "items://{id}");
		this.schema.install(this.product, item);
		this.schema.install(this.product, item);
		assertThat(this.schema.queryLong("select count(*) from pg_trigger where not tgisinternal and tgrelid in ('"
				+ this.schema.schema() + ".product'::regclass, '" + this.schema.schema() + ".\"Item\"'::regclass)"))
			.isEqualTo(2);
		assertThat(this.schema.queryLong("select count(*) from pg_proc where pronamespace = '" + this.schema.schema()
				+ "'::regnamespace and prorettype = 'trigger'::regtype"))
			.isEqualTo(2);
		this.schema.sql("insert into product values (1)", "insert into \"Item\" values (2)");
		assertThat(this.schema.rows()).hasSize(2);
	}

	@Test
	void aPartitionedTableIsCapturedUnderItsOwnName() throws Exception {
		this.schema.sql("create table product (id bigint primary key) partition by range (id)",
				"create table product_low partition of product for values from (0) to (100)",
				"create table product_high partition of product for values from (100) to (maxvalue)");
		this.schema.install(this.product);
		this.schema.sql("insert into product values (1), (200)", "update product set id = 2 where id = 1");
		assertThat(this.schema.rows()).extracting(CapturedRow::table, CapturedRow::operation)
			.containsExactly(tuple(this.schema.schema() + ".product", CapturedRow.Operation.INSERT),
					tuple(this.schema.schema() + ".product", CapturedRow.Operation.INSERT),
					tuple(this.schema.schema() + ".product", CapturedRow.Operation.UPDATE));
	}

	@Test
	void aRenamedTableAndATableRestoredUnderItsNameStillRunTheirFunction() throws Exception {
		this.schema.sql("create table product (id bigint primary key)");
		this.schema.install(this.product);
		String function = this.schema.queryString("select p.oid::regproc::text from pg_trigger t join pg_proc p on "
				+ "p.oid = t.tgfoid where t.tgrelid = 'product'::regclass and not t.tgisinternal");
		// Its oid stays: the function knows it.
		this.schema.sql("alter table product rename to item", "insert into item values (1)",
				"alter table item rename to product");
		// As a restore from a dump makes it: a new oid, the old name, the same function.
		this.schema.sql("drop table product", "create table product (id bigint primary key)",
				"create trigger mcp_change_capture after insert or update or delete on product for each row "
						+ "execute function " + function + "()",
				"insert into product values (2)");
		assertThat(this.schema.rows()).extracting(CapturedRow::table, CapturedRow::newValues)
			.containsExactly(tuple(this.schema.schema() + ".product", Map.of("id", "1")),
					tuple(this.schema.schema() + ".product", Map.of("id", "2")));
	}

	@Test
	void theInstallUsesNoStatementNewerThanPostgresql13() {
		List<String> sql = PostgresCaptureDatabase.installSql(InstallSqlDocumentationTests.EXAMPLE_NAMES,
				List.of(InstallSqlDocumentationTests.EXAMPLE_TABLE));
		// "create or replace trigger" came with PostgreSQL 14.
		assertThat(sql).noneMatch((statement) -> statement.contains("create or replace trigger"));
	}

	@Test
	void anEarlierVersionsGenericFunctionIsReplacedAndItsTriggersWithIt() throws Exception {
		this.schema.sql("create table product (id bigint primary key)", "create table gone (id bigint primary key)",
				"create function mcp_change_capture() returns trigger language plpgsql as $$ begin return null; end $$",
				"create trigger mcp_change_capture after insert or update or delete on product "
						+ "for each row execute function mcp_change_capture('id')",
				"create trigger mcp_change_capture after insert or update or delete on gone "
						+ "for each row execute function mcp_change_capture('id')");
		this.schema.install(this.product);
		assertThat(this.schema.queryLong("select count(*) from pg_proc where oid = to_regprocedure('"
				+ this.schema.schema() + ".mcp_change_capture()')"))
			.as("the generic function is gone")
			.isZero();
		this.schema.sql("insert into product values (1)", "insert into gone values (2)");
		assertThat(this.schema.rows()).extracting(CapturedRow::table)
			.containsExactly(this.schema.schema() + ".product");
	}

	@Test
	void aKeyColumnOfATypeThatIsNotBuiltInIsRefused() throws Exception {
		this.schema.sql("create type mood as enum ('ok')", "create type pair as (a int, b int)",
				"create domain code as text check (value <> '')",
				"create table feeling (m mood primary key, p pair, c code, id int)");
		assertThat(this.schema.check(table("feeling", "f://{m}/{p}"))).containsExactly(
				"column m of feeling, in \"f://{m}/{p}\", is of type " + this.schema.schema()
						+ ".mood, which is not built into PostgreSQL: its conversion to text would run as the "
						+ "capture's installer; use a column of a built-in type (text, a number, uuid, a date or time)",
				"column p of feeling, in \"f://{m}/{p}\", is of type " + this.schema.schema()
						+ ".pair, which is not built into PostgreSQL: its conversion to text would run as the "
						+ "capture's installer; use a column of a built-in type (text, a number, uuid, a date or time)");
		assertThat(this.schema.check(table("feeling", "f://{c}/{id}"))).as("a domain over a built-in type").isEmpty();
	}

	@Test
	void aVersionBefore13IsRefusedWithWhatItNeeds() {
		assertThat(PostgresCaptureDatabase.versionProblem(12, "12.17")).isEqualTo("the database is PostgreSQL 12.17, "
				+ "and the change capture needs PostgreSQL 13 or newer (pg_current_xact_id, xid8)");
		assertThat(PostgresCaptureDatabase.versionProblem(13, "13.0")).isNull();
		assertThat(PostgresCaptureDatabase.versionProblem(17, "17.2")).isNull();
	}

}
