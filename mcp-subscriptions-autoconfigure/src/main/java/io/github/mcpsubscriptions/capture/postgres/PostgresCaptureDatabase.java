package io.github.mcpsubscriptions.capture.postgres;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import io.github.mcpsubscriptions.capture.CaptureDatabase;
import io.github.mcpsubscriptions.capture.CapturePosition;
import io.github.mcpsubscriptions.capture.CapturedRow;
import io.github.mcpsubscriptions.capture.CapturedTable;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The change capture on PostgreSQL (13 or newer; stock, no extension, any
 * {@code wal_level}).
 * <p>
 * An {@code AFTER INSERT OR UPDATE OR DELETE} row trigger on each captured table runs a
 * function made for that table at install: it inserts into the change table the
 * template's columns of the new and the old row as text, the table's name as the
 * installer knew it, the operation, the top-level transaction id
 * ({@code pg_current_xact_id()}) and the time, and calls {@code pg_notify} to wake the
 * reader. It runs as its owner ({@code security definer}), so it runs nothing a user can
 * define: only built-in types' text forms (the check refuses other key types), with a
 * fixed {@code search_path}; only its owner may attach it, and it refuses to run for a
 * table other than its own. A row id alone is no safe cursor (transactions commit out of
 * id order), so the reader reads only rows whose transaction id is below a horizon under
 * which every transaction of this database has ended (its rows are visible, or rolled
 * back and gone): its snapshot's xmin, not held back by transactions known to run in
 * other databases of the server. It reads in (transaction id, row id) order and keeps
 * that position in the cursor table. A long-running transaction of this database that has
 * written anything holds the horizon back, and with it every notification after it. The
 * reader's lease is a session-level advisory lock on its connection.
 *
 * @since 0.1.0
 */
public class PostgresCaptureDatabase implements CaptureDatabase {

	private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_$]*(\\.[a-z_][a-z0-9_$]*)?");

	private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]*");

	/** Base types whose text form no setting changes. */
	private static final Set<String> STABLE_TEXT = Set.of("int2", "int4", "int8", "numeric", "text", "varchar",
			"bpchar", "name", "uuid", "bool", "oid", "timestamptz");

	private static final Log logger = LogFactory.getLog(PostgresCaptureDatabase.class);

	/**
	 * The longest key read, as JSON text. The capture's trigger writes a flat object of
	 * short texts; anything else was written by another hand and is rejected.
	 */
	static final int MAX_KEY_LENGTH = 65_536;

	private static final JsonMapper json = JsonMapper
		.builder(JsonFactory.builder()
			.streamReadConstraints(StreamReadConstraints.builder()
				.maxNestingDepth(2)
				.maxStringLength(MAX_KEY_LENGTH)
				.maxNumberLength(100)
				.build())
			.build())
		.build();

	private static final TypeReference<LinkedHashMap<String, @Nullable Object>> VALUES = new TypeReference<>() {
	};

	/**
	 * The transaction id below which every transaction that could still add a change has
	 * ended: the snapshot's oldest transaction that was running then and is not known to
	 * run in another database (only this database's transactions fire its triggers), or
	 * the snapshot's xmax when none. A transaction that has ended since, or whose
	 * database cannot be seen (another role's session without pg_read_all_stats, a
	 * prepared transaction), counts as this database's: the horizon is never too far.
	 */
	static final String HORIZON = "coalesce((select min(x) from pg_snapshot_xip(pg_current_snapshot()) x "
			+ "where not exists (select 1 from pg_stat_activity a where a.backend_xid = x::xid "
			+ "and a.datname is distinct from current_database())), pg_snapshot_xmax(pg_current_snapshot()))";

	/** The change table as configured, lower case. */
	private final String changeTable;

	/** The notification channel, the lock's name and the object names' stem. */
	private final String stem;

	/** The change table's names, known once a connection was asked. */
	private volatile @Nullable Names names;

	/** The captured tables' qualified names, as their rows carry them. */
	private volatile @Nullable List<String> capturedNames;

	/** Tables whose keys could not be read once, so that the log says so once each. */
	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	/**
	 * Create the PostgreSQL capture for a change table.
	 * @param changeTable the change table's name, optionally schema-qualified
	 */
	public PostgresCaptureDatabase(String changeTable) {
		this.changeTable = changeTable.toLowerCase(Locale.ROOT);
		this.stem = this.changeTable.substring(this.changeTable.indexOf('.') + 1);
	}

	@Override
	public Properties connectionProperties(String applicationName) {
		Properties properties = new Properties();
		properties.setProperty("ApplicationName", applicationName);
		// A dead peer is found by the operating system, not only at the next read.
		properties.setProperty("tcpKeepAlive", "true");
		return properties;
	}

	@Override
	public List<String> check(Connection connection, List<CapturedTable> tables) throws SQLException {
		List<String> problems = new ArrayList<>();
		DatabaseMetaData metaData = connection.getMetaData();
		String product = metaData.getDatabaseProductName();
		if (!"PostgreSQL".equalsIgnoreCase(product)) {
			problems.add("the database is " + product + " " + metaData.getDatabaseProductVersion()
					+ ", and the change capture works on PostgreSQL only");
			return problems;
		}
		String version = versionProblem(metaData.getDatabaseMajorVersion(), metaData.getDatabaseProductVersion());
		if (version != null) {
			problems.add(version);
			return problems;
		}
		if (!NAME.matcher(this.changeTable).matches()) {
			problems.add("mcp.capture.table-name \"" + this.changeTable
					+ "\" is not a plain table name (letters, digits and _, optionally schema-qualified)");
		}
		if (tables.isEmpty()) {
			problems.add("mcp.capture.tables names no table; add one such as mcp.capture.tables.product="
					+ "catalog://products/{id}");
		}
		for (CapturedTable table : tables) {
			Long oid = relation(connection, table.name());
			if (oid == null) {
				problems
					.add("table " + table.name() + " does not exist (as the capture's connection sees it, search_path "
							+ searchPath(connection) + ")");
				continue;
			}
			Map<String, Column> columns = columns(connection, oid);
			if (table.columns().isEmpty()) {
				problems.add("the URI template \"" + table.template().getTemplate() + "\" of table " + table.name()
						+ " has no variable, so every row would be one resource; name a key column such as {id}");
			}
			for (String variable : table.columns()) {
				Column column = columns.get(variable);
				if (column != null) {
					column = typed(connection, column);
				}
				if (column == null) {
					problems.add("variable {" + variable + "} of \"" + table.template().getTemplate()
							+ "\" is not a column of " + table.name() + "; it has "
							+ String.join(", ", columns.keySet()));
				}
				else if (column.foreignType() != null) {
					// Its cast or output function would run in the trigger, as the
					// function's owner.
					problems.add("column " + variable + " of " + table.name() + ", in \""
							+ table.template().getTemplate() + "\", is of type " + column.foreignType()
							+ ", which is not built into PostgreSQL: its "
							+ "conversion to text would run as the capture's installer; use a column of a built-in type "
							+ "(text, a number, uuid, a date or time)");
				}
			}
		}
		return problems;
	}

	/**
	 * What is wrong with a PostgreSQL version, if anything: the capture needs 13's
	 * {@code pg_current_xact_id()} and {@code xid8}; its SQL avoids what came later.
	 * @param major the major version
	 * @param version the version as the server reports it
	 * @return the problem, or {@code null}
	 */
	static @Nullable String versionProblem(int major, String version) {
		return (major < 13) ? "the database is PostgreSQL " + version
				+ ", and the change capture needs PostgreSQL 13 or newer (pg_current_xact_id, xid8)" : null;
	}

	/**
	 * The table a configured name names, read as PostgreSQL reads a name in SQL (quoted:
	 * its exact case; unquoted: folded to lower case).
	 */
	private static @Nullable Long relation(Connection connection, String table) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(
				"select c.oid from pg_class c where c.oid = to_regclass(?) and c.relkind in ('r', 'p')")) {
			statement.setString(1, table);
			try (ResultSet result = statement.executeQuery()) {
				return result.next() ? result.getLong(1) : null;
			}
		}
		catch (SQLException ex) {
			// A name to_regclass cannot parse.
			if (!connection.getAutoCommit()) {
				throw ex;
			}
			return null;
		}
	}

	/**
	 * A table's columns by name, in order, their types not followed yet.
	 */
	private static Map<String, Column> columns(Connection connection, long table) throws SQLException {
		Map<String, Column> columns = new LinkedHashMap<>();
		try (PreparedStatement statement = connection.prepareStatement(
				"select attname, quote_ident(attname), atttypid from pg_attribute where attrelid = ? and attnum > 0 "
						+ "and not attisdropped order by attnum")) {
			statement.setLong(1, table);
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					columns.put(result.getString(1),
							new Column(result.getString(1), result.getString(2), result.getLong(3), "", null));
				}
			}
		}
		return columns;
	}

	/**
	 * A column with its type followed through domains to the base type: built in
	 * (PostgreSQL's own, in {@code pg_catalog}), or the first type that is not. A domain
	 * over a built-in type is built in enough: PostgreSQL converts its values as the base
	 * type's (a cast from a domain has no effect), and its check runs on writes only.
	 */
	private static Column typed(Connection connection, Column column) throws SQLException {
		long type = column.type();
		try (PreparedStatement statement = connection.prepareStatement("select t.typtype, t.typbasetype, "
				+ "n.nspname = 'pg_catalog', t.typname, quote_ident(n.nspname) || '.' || quote_ident(t.typname) "
				+ "from pg_type t join pg_namespace n on n.oid = t.typnamespace where t.oid = ?")) {
			for (int depth = 0; depth < 100; depth++) {
				statement.setLong(1, type);
				try (ResultSet result = statement.executeQuery()) {
					if (!result.next()) {
						break;
					}
					if ("d".equals(result.getString(1))) {
						type = result.getLong(2);
						continue;
					}
					return result.getBoolean(3)
							? new Column(column.name(), column.quoted(), type, result.getString(4), null)
							: new Column(column.name(), column.quoted(), type, "", result.getString(5));
				}
			}
		}
		return new Column(column.name(), column.quoted(), type, "", "oid " + type);
	}

	private static String searchPath(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("show search_path")) {
			return result.next() ? result.getString(1) : "unknown";
		}
	}

	@Override
	public Map<String, CapturedTable> qualifiedNames(Connection connection, List<CapturedTable> tables)
			throws SQLException {
		Map<String, CapturedTable> names = new LinkedHashMap<>();
		for (CapturedTable table : tables) {
			names.put(qualified(connection, table.name()), table);
		}
		this.capturedNames = List.copyOf(names.keySet());
		return names;
	}

	/**
	 * A table's name, schema-qualified, each part quoted where SQL needs it
	 * ({@code quote_ident}): the name rows carry and the SQL uses.
	 */
	private static String qualified(Connection connection, String table) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("select quote_ident(n.nspname) || '.' || quote_ident(c.relname) "
					+ "from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid = to_regclass(?)")) {
			statement.setString(1, table);
			try (ResultSet result = statement.executeQuery()) {
				if (!result.next()) {
					throw new SQLException("Table " + table + " does not exist");
				}
				return result.getString(1);
			}
		}
	}

	/**
	 * The change table's names, schema-qualified and quoted: the triggers run with the
	 * writers' search_path, which may not find an unqualified name.
	 */
	private Names names(Connection connection) throws SQLException {
		Names known = this.names;
		if (known != null) {
			return known;
		}
		int dot = this.changeTable.indexOf('.');
		try (PreparedStatement statement = connection.prepareStatement("select quote_ident(s), quote_ident(t), "
				+ "quote_ident(t || '_cursor') from (select coalesce(?, current_schema()) as s, ? as t) x")) {
			statement.setString(1, (dot < 0) ? null : this.changeTable.substring(0, dot));
			statement.setString(2, this.changeTable.substring(dot + 1));
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				String schema = result.getString(1);
				if (schema == null) {
					throw new SQLException("The capture's connection has no current schema (search_path "
							+ searchPath(connection) + ") to put " + this.changeTable + " in");
				}
				Names names = new Names(schema, schema + "." + result.getString(2), schema + "." + result.getString(3),
						this.stem);
				this.names = names;
				return names;
			}
		}
	}

	@Override
	public void install(Connection connection, List<CapturedTable> tables) throws SQLException {
		Names names = names(connection);
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		try (Statement statement = connection.createStatement();
				PreparedStatement lock = connection
					.prepareStatement("select pg_advisory_xact_lock(hashtextextended(?, 0))")) {
			// One installer at a time: nodes of a cluster start together, and PostgreSQL
			// fails one of two concurrent "create table if not exists" of one name.
			lock.setString(1, names.changes() + ":install");
			lock.execute();
			// The SQL's literals double their quotes only.
			statement.execute("set local standard_conforming_strings = on");
			List<Table> installed = new ArrayList<>();
			for (CapturedTable table : tables) {
				installed.add(table(connection, table));
			}
			for (String sql : installSql(names, installed)) {
				statement.execute(sql);
			}
			connection.commit();
		}
		catch (SQLException | RuntimeException ex) {
			connection.rollback();
			throw ex;
		}
		finally {
			connection.setAutoCommit(autoCommit);
		}
	}

	private static Table table(Connection connection, CapturedTable table) throws SQLException {
		Long oid = relation(connection, table.name());
		if (oid == null) {
			throw new SQLException("Table " + table.name() + " does not exist");
		}
		String relname;
		boolean partitioned;
		try (PreparedStatement statement = connection
			.prepareStatement("select relname, relkind = 'p' from pg_class where oid = ?")) {
			statement.setLong(1, oid);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				relname = result.getString(1);
				partitioned = result.getBoolean(2);
			}
		}
		Map<String, Column> columns = columns(connection, oid);
		List<Column> keys = new ArrayList<>();
		for (String variable : table.columns()) {
			Column column = columns.get(variable);
			if (column != null) {
				column = typed(connection, column);
			}
			if (column == null || column.foreignType() != null) {
				throw new SQLException("Column " + variable + " of " + table.name() + " cannot be captured");
			}
			keys.add(column);
		}
		return new Table(qualified(connection, table.name()), relname, oid, partitioned, keys);
	}

	/**
	 * The SQL that installs the capture, as the documentation shows it.
	 * @param names the change table's names
	 * @param tables the captured tables
	 * @return the statements, in order
	 */
	static List<String> installSql(Names names, List<Table> tables) {
		List<String> sql = new ArrayList<>();
		sql.add("create table if not exists " + names.changes() + " (\n" //
				+ "  id bigserial primary key,\n" //
				+ "  txid xid8 not null default pg_current_xact_id(),\n" //
				+ "  tbl text not null,\n" //
				+ "  op \"char\" not null,\n" //
				+ "  new_key jsonb,\n" //
				+ "  old_key jsonb,\n" //
				+ "  at timestamptz not null default clock_timestamp())");
		sql.add("create index if not exists " + ident(names.stem() + "_txid_id") + " on " + names.changes()
				+ " (txid, id)");
		sql.add("create index if not exists " + ident(names.stem() + "_at") + " on " + names.changes() + " (at)");
		sql.add("create table if not exists " + names.cursor() + " (\n" //
				+ "  name text primary key,\n" //
				+ "  source text not null,\n" //
				+ "  txid bigint not null,\n" //
				+ "  id bigint not null,\n" //
				+ "  saved_at timestamptz not null default now())");
		// Only the capture's functions write them, and only its reader reads them.
		sql.add("revoke all on table " + names.changes() + ", " + names.cursor() + " from public");
		// An earlier version's one function for every table, and the triggers that use
		// it.
		sql.add("drop function if exists " + names.schema() + "." + ident(names.stem() + "_capture") + "() cascade");
		for (Table table : tables) {
			String function = names.schema() + "." + ident(functionName(names.stem(), table));
			sql.add(functionSql(names, table, function));
			// Attaching it takes EXECUTE; firing it does not: writers need nothing.
			sql.add("revoke all on function " + function + "() from public");
			// Not "create or replace trigger", which PostgreSQL 13 does not have.
			sql.add("drop trigger if exists " + ident(names.stem() + "_capture") + " on " + table.qualified());
			sql.add("create trigger " + ident(names.stem() + "_capture") + "\n" //
					+ "  after insert or update or delete on " + table.qualified() + "\n" //
					+ "  for each row execute function " + function + "()");
		}
		return sql;
	}

	/**
	 * One function per table, so that it reads the template's columns by name and nothing
	 * else of the row, and records the table by the name the installer knew.
	 */
	private static String functionSql(Names names, Table table, String function) {
		StringBuilder settings = new StringBuilder("set search_path = pg_catalog, pg_temp");
		boolean stable = true;
		for (Column key : table.keys()) {
			stable &= STABLE_TEXT.contains(key.typeName());
		}
		if (!stable) {
			// The text of dates, times, intervals, floats and bytea follows these
			// settings.
			settings.append(" set datestyle = 'ISO, YMD' set intervalstyle = 'postgres' set timezone = 'UTC' "
					+ "set extra_float_digits = 1 set bytea_output = 'hex'");
		}
		String check = table.partitioned()
				? "  if not exists (select from pg_partition_ancestors(TG_RELID) a where a.relid in (" + table.oid()
						+ ", to_regclass(" + literal(table.qualified()) + "))) then\n"
				: "  if TG_RELID <> " + table.oid() + " and TG_RELID is distinct from to_regclass("
						+ literal(table.qualified()) + ") then\n";
		String body = "\n" //
				+ "declare\n" //
				+ "  new_key jsonb;\n" //
				+ "  old_key jsonb;\n" //
				+ "begin\n" //
				// Its table by the oid it had at install, or by its name after a restore.
				+ check //
				+ "    raise exception '%() captures % only, not %', " + literal(function) + ", "
				+ literal(table.qualified()) + ", TG_RELID::regclass;\n" //
				+ "  end if;\n" //
				+ "  if TG_OP <> 'DELETE' then\n" //
				+ "    new_key := jsonb_build_object(" + keys("NEW", table) + ");\n" //
				+ "  end if;\n" //
				+ "  if TG_OP <> 'INSERT' then\n" //
				+ "    old_key := jsonb_build_object(" + keys("OLD", table) + ");\n" //
				+ "    if old_key = new_key then\n" //
				+ "      old_key := null;\n" //
				+ "    end if;\n" //
				+ "  end if;\n" //
				+ "  insert into " + names.changes() + " (tbl, op, new_key, old_key)\n" //
				+ "    values (" + literal(table.qualified()) + ", left(TG_OP, 1), new_key, old_key);\n" //
				+ "  perform pg_notify(" + literal(names.stem()) + ", '');\n" //
				+ "  return null;\n" //
				+ "end\n";
		String quote = "$capture$";
		for (int i = 1; body.contains(quote.substring(0, quote.length() - 1)); i++) {
			quote = "$capture" + i + "$";
		}
		// As its owner, so that writers need no privilege on the change table; with a
		// fixed search_path, as a security definer function must have.
		return "create or replace function " + function + "() returns trigger\n" //
				+ "language plpgsql security definer " + settings + " as " + quote + body + quote;
	}

	private static String keys(String row, Table table) {
		StringBuilder keys = new StringBuilder();
		for (Column key : table.keys()) {
			if (!keys.isEmpty()) {
				keys.append(", ");
			}
			String value = row + "." + key.quoted();
			keys.append(literal(key.name())).append(", ");
			if ("timestamptz".equals(key.typeName())) {
				// As java.time.Instant writes it: UTC, "T", "Z", fractions in groups of
				// three.
				keys.append("regexp_replace(regexp_replace(to_char(")
					.append(value)
					.append(" at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US'), '\\.000000$', ''), "
							+ "'(\\.\\d{3})000$', '\\1') || 'Z'");
			}
			else {
				keys.append(value).append("::text");
			}
		}
		return keys.toString();
	}

	private static String functionName(String stem, Table table) {
		String name = stem + "_" + table.relname().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
		String hash = String.format("%08x", table.qualified().hashCode());
		// Within PostgreSQL's 63 bytes, distinct for tables of one name in two schemas.
		return ((name.length() > 54) ? name.substring(0, 54) : name) + "_" + hash;
	}

	/** An identifier as SQL needs it: quoted unless plain lower case. */
	static String ident(String name) {
		return PLAIN.matcher(name).matches() ? name : "\"" + name.replace("\"", "\"\"") + "\"";
	}

	private static String literal(String text) {
		return "'" + text.replace("'", "''") + "'";
	}

	@Override
	public void open(Connection connection) throws SQLException {
		names(connection);
		try (Statement statement = connection.createStatement()) {
			statement.execute("listen " + ident(this.stem));
		}
	}

	@Override
	public boolean tryLease(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("select pg_try_advisory_lock(hashtextextended(?, 0))")) {
			statement.setString(1, "mcp-change-capture:" + names(connection).changes());
			try (ResultSet result = statement.executeQuery()) {
				return result.next() && result.getBoolean(1);
			}
		}
	}

	@Override
	public Cursor cursor(Connection connection) throws SQLException {
		String cursors = names(connection).cursor();
		try (PreparedStatement insert = connection.prepareStatement("insert into " + cursors
				+ " (name, source, txid, id) select 'capture', ?, pg_snapshot_xmin(pg_current_snapshot())::text::bigint, 0 "
				+ "on conflict (name) do nothing")) {
			insert.setString(1, UUID.randomUUID().toString());
			insert.executeUpdate();
		}
		try (Statement statement = connection.createStatement();
				ResultSet result = statement
					.executeQuery("select source, txid, id from " + cursors + " where name = 'capture'")) {
			if (!result.next()) {
				throw new SQLException("The capture's cursor row is missing from " + cursors);
			}
			return new Cursor(result.getString(1), new CapturePosition(result.getLong(2), result.getLong(3)));
		}
	}

	@Override
	public void savePosition(Connection connection, CapturePosition position) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("update " + names(connection).cursor()
				+ " set txid = ?, id = ?, saved_at = now() where name = 'capture'")) {
			statement.setLong(1, position.transaction());
			statement.setLong(2, position.row());
			if (statement.executeUpdate() != 1) {
				throw new SQLException("The capture's cursor row is missing");
			}
		}
	}

	@Override
	public Batch read(Connection connection, CapturePosition after, int limit) throws SQLException {
		List<String> captured = this.capturedNames;
		if (captured == null) {
			throw new IllegalStateException("The captured tables' names are not known yet (qualifiedNames)");
		}
		// One statement, one snapshot: the horizon and the rows below it agree. Only the
		// captured tables' rows: a row of another table is nobody's change.
		String sql = "with s as (select " + HORIZON + " as xmin) "
				+ "select s.xmin::text::bigint, c.txid::text::bigint, c.id, c.tbl, c.op, c.new_key::text, c.old_key::text, c.at "
				+ "from s left join lateral (select * from " + names(connection).changes() + " c "
				+ "where (c.txid, c.id) > (?::text::xid8, ?) and c.txid < s.xmin and c.tbl = any(?) "
				+ "order by c.txid, c.id limit ?) c on true";
		List<CapturedRow> rows = new ArrayList<>();
		long xmin = 0;
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, Long.toString(after.transaction()));
			statement.setLong(2, after.row());
			statement.setArray(3, connection.createArrayOf("text", captured.toArray()));
			statement.setInt(4, limit);
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					xmin = result.getLong(1);
					long txid = result.getLong(2);
					if (result.wasNull()) {
						continue;
					}
					rows.add(row(new CapturePosition(txid, result.getLong(3)), result.getString(4), result.getString(5),
							result.getString(6), result.getString(7), result.getTimestamp(8).toInstant()));
				}
			}
		}
		CapturePosition upTo = (rows.size() >= limit) ? rows.get(rows.size() - 1).position()
				: new CapturePosition(xmin, 0);
		if (!rows.isEmpty()) {
			upTo = upTo.max(rows.get(rows.size() - 1).position());
		}
		return new Batch(rows, after.max(upTo));
	}

	/**
	 * A recorded row, or, when its key or operation cannot be read, the row with neither
	 * key: the capture rejects it alone (it counts it in {@code mcp.capture.rejected})
	 * and goes on past it.
	 */
	private CapturedRow row(CapturePosition position, String table, String op, @Nullable String newKey,
			@Nullable String oldKey, Instant at) {
		try {
			return new CapturedRow(position, table, operation(op), values(newKey), values(oldKey), at);
		}
		catch (UnreadableKeyException ex) {
			if (this.warned.add(table)) {
				logger.warn("A captured change of " + table + " at " + position + " is rejected: its recorded key "
						+ "cannot be read (" + ex.getMessage() + "). The capture's trigger never writes such a row: "
						+ "another hand wrote it into the change table. Counted in mcp.capture.rejected, logged once "
						+ "per table");
			}
			return new CapturedRow(position, table, CapturedRow.Operation.UPDATE, null, null, at);
		}
	}

	private static CapturedRow.Operation operation(String op) {
		return switch (op) {
			case "I" -> CapturedRow.Operation.INSERT;
			case "U" -> CapturedRow.Operation.UPDATE;
			case "D" -> CapturedRow.Operation.DELETE;
			default -> throw new UnreadableKeyException("unknown operation \"" + op + "\"");
		};
	}

	/**
	 * A key as the trigger writes it: a JSON object of texts (or, from an earlier
	 * version's trigger, numbers and booleans), short, flat.
	 */
	static @Nullable Map<String, @Nullable Object> values(@Nullable String text) {
		if (text == null) {
			return null;
		}
		if (text.length() > MAX_KEY_LENGTH) {
			throw new UnreadableKeyException(
					"it is " + text.length() + " characters long, longer than " + MAX_KEY_LENGTH);
		}
		Map<String, @Nullable Object> values;
		try {
			values = json.readValue(text, VALUES);
		}
		catch (JacksonException ex) {
			String message = ex.getOriginalMessage();
			throw new UnreadableKeyException((message.length() > 200) ? message.substring(0, 200) + "..." : message);
		}
		if (values == null) {
			throw new UnreadableKeyException("it is null");
		}
		for (Map.Entry<String, @Nullable Object> entry : values.entrySet()) {
			Object value = entry.getValue();
			if (value != null && !(value instanceof String || value instanceof Number || value instanceof Boolean)) {
				throw new UnreadableKeyException("the value of " + entry.getKey() + " is not a text");
			}
		}
		return values;
	}

	@Override
	public @Nullable CapturePosition prune(Connection connection, Duration retention) throws SQLException {
		String changes = names(connection).changes();
		String sql = "with d as (delete from " + changes + " where txid < pg_snapshot_xmin(pg_current_snapshot()) "
				+ "and at < now() - make_interval(secs => ?) returning txid, id) "
				+ "select txid::text::bigint, id from d order by txid desc, id desc limit 1";
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setDouble(1, retention.toMillis() / 1000.0);
			try (ResultSet result = statement.executeQuery()) {
				return result.next() ? new CapturePosition(result.getLong(1), result.getLong(2)) : null;
			}
		}
	}

	@Override
	public void awaitChanges(Connection connection, Duration timeout) throws SQLException {
		PGConnection postgres = connection.unwrap(PGConnection.class);
		PGNotification[] notifications = postgres.getNotifications((int) Math.max(1, timeout.toMillis()));
		if (notifications == null || notifications.length == 0) {
			// Nothing woke the reader: a round trip finds a connection that died quietly.
			try (Statement statement = connection.createStatement()) {
				statement.execute("select 1");
			}
		}
	}

	@Override
	public CapturePosition horizon(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("select (" + HORIZON + ")::text::bigint")) {
			result.next();
			return new CapturePosition(result.getLong(1), 0);
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The rows that wait are those the capture's snapshot sees (of ended transactions) at
	 * or above the horizon; the holder is the session whose {@code backend_xid} is the
	 * horizon. Another role's session shows its transaction id only to a role that may
	 * read all statistics ({@code pg_read_all_stats}, part of {@code pg_monitor}), or to
	 * a superuser; without, the hold is seen, its holder not.
	 */
	@Override
	public @Nullable Hold hold(Connection connection, CapturePosition after) throws SQLException {
		String sql = "with s as (select " + HORIZON + " as x), " //
				+ "w as (select min(c.at) as at from " + names(connection).changes() + " c, s "
				+ "where (c.txid, c.id) > (?::text::xid8, ?) and c.txid >= s.x) "
				+ "select extract(epoch from now() - w.at)::float8, s.x::text::bigint, a.pid, a.application_name, "
				+ "a.state, extract(epoch from now() - a.xact_start)::float8 from s cross join w "
				+ "left join lateral (select pid, application_name, state, xact_start from pg_stat_activity "
				+ "where backend_xid = s.x::xid order by xact_start limit 1) a on true where w.at is not null";
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, Long.toString(after.transaction()));
			statement.setLong(2, after.row());
			try (ResultSet result = statement.executeQuery()) {
				if (!result.next()) {
					return null;
				}
				Duration waiting = seconds(result.getDouble(1));
				long transaction = result.getLong(2);
				int pid = result.getInt(3);
				if (result.wasNull()) {
					return new Hold(waiting, transaction, null, null, null, null);
				}
				double open = result.getDouble(6);
				return new Hold(waiting, transaction, pid, result.getString(4), result.getString(5),
						result.wasNull() ? null : seconds(open));
			}
		}
	}

	private static Duration seconds(double seconds) {
		return Duration.ofNanos((long) (Math.max(0, seconds) * 1_000_000_000L));
	}

	@Override
	public Map<String, Long> tableIds(Connection connection, Collection<String> qualifiedNames) throws SQLException {
		Map<String, Long> ids = new LinkedHashMap<>();
		// By the name's text, as the change rows carry it, not parsed as an identifier.
		try (PreparedStatement statement = connection.prepareStatement("select c.oid::bigint from pg_class c "
				+ "join pg_namespace n on n.oid = c.relnamespace where quote_ident(n.nspname) || '.' || quote_ident(c.relname) = ? "
				+ "and c.relkind in ('r', 'p')")) {
			for (String name : qualifiedNames) {
				statement.setString(1, name);
				try (ResultSet result = statement.executeQuery()) {
					if (result.next()) {
						ids.put(name, result.getLong(1));
					}
				}
			}
		}
		return ids;
	}

	@Override
	public Map<Long, String> tableNames(Connection connection, Collection<Long> ids) throws SQLException {
		Map<Long, String> names = new LinkedHashMap<>();
		if (ids.isEmpty()) {
			return names;
		}
		try (PreparedStatement statement = connection
			.prepareStatement("select c.oid::bigint, quote_ident(n.nspname) || '.' || "
					+ "quote_ident(c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid::bigint = any(?)")) {
			statement.setArray(1, connection.createArrayOf("int8", ids.toArray(Long[]::new)));
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					names.put(result.getLong(1), result.getString(2));
				}
			}
		}
		return names;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A row of its own in the cursor table, named {@code pruned}; its position only moves
	 * on.
	 */
	@Override
	public void savePruned(Connection connection, CapturePosition pruned) throws SQLException {
		String cursors = names(connection).cursor();
		try (PreparedStatement statement = connection.prepareStatement("insert into " + cursors
				+ " as c (name, source, txid, id) values ('pruned', '', ?, ?) on conflict (name) do update "
				+ "set txid = excluded.txid, id = excluded.id, saved_at = now() "
				+ "where (c.txid, c.id) < (excluded.txid, excluded.id)")) {
			statement.setLong(1, pruned.transaction());
			statement.setLong(2, pruned.row());
			statement.executeUpdate();
		}
	}

	@Override
	public @Nullable CapturePosition pruned(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet result = statement
					.executeQuery("select txid, id from " + names(connection).cursor() + " where name = 'pruned'")) {
			return result.next() ? new CapturePosition(result.getLong(1), result.getLong(2)) : null;
		}
	}

	/**
	 * The change table's names, quoted where SQL needs it.
	 *
	 * @param schema the schema
	 * @param changes the change table, schema-qualified
	 * @param cursor the cursor table, schema-qualified
	 * @param stem the change table's name without schema, as configured: the notification
	 * channel's, the functions' and the triggers' stem
	 */
	record Names(String schema, String changes, String cursor, String stem) {
	}

	/**
	 * A captured table as the install knows it.
	 *
	 * @param qualified its name, schema-qualified and quoted, as its rows carry it
	 * @param relname its name without schema, as the catalog has it
	 * @param oid its oid at install
	 * @param partitioned whether it is a partitioned table (its partitions fire the
	 * trigger)
	 * @param keys the template's columns, in its order
	 */
	record Table(String qualified, String relname, long oid, boolean partitioned, List<Column> keys) {
	}

	/**
	 * A column and its type.
	 *
	 * @param name its name, as the catalog has it
	 * @param quoted its name, quoted where SQL needs it
	 * @param type its type's oid, through domains
	 * @param typeName the built-in base type's name ({@code pg_type.typname})
	 * @param foreignType the name of the type that is not built in, or {@code null}
	 */
	record Column(String name, String quoted, long type, String typeName, @Nullable String foreignType) {
	}

	/**
	 * A recorded row that cannot be read, said why.
	 */
	private static final class UnreadableKeyException extends RuntimeException {

		UnreadableKeyException(String message) {
			super(message);
		}

	}

}
