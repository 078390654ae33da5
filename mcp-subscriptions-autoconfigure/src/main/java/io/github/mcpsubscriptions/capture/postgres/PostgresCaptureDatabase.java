package io.github.mcpsubscriptions.capture.postgres;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Pattern;

import io.github.mcpsubscriptions.capture.CaptureDatabase;
import io.github.mcpsubscriptions.capture.CapturePosition;
import io.github.mcpsubscriptions.capture.CapturedRow;
import io.github.mcpsubscriptions.capture.CapturedTable;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The change capture on PostgreSQL (13 or newer; stock, no extension, any
 * {@code wal_level}).
 * <p>
 * An {@code AFTER INSERT OR UPDATE OR DELETE} row trigger on each captured table inserts
 * into the change table the template's columns of the new and the old row, the
 * operation, the top-level transaction id ({@code pg_current_xact_id()}) and the time,
 * and calls {@code pg_notify} to wake the reader. A row id alone is no safe cursor
 * (transactions commit out of id order), so the reader reads only rows whose transaction
 * id is below a horizon under which every transaction of this database has ended (its
 * rows are visible, or rolled back and gone): its snapshot's xmin, not held back by
 * transactions known to run in other databases of the server. It reads in (transaction
 * id, row id) order and keeps that position in the cursor table. A long-running
 * transaction of this database that has written anything holds the horizon back, and with
 * it every notification after it. The reader's lease is a session-level advisory lock on
 * its connection.
 */
public class PostgresCaptureDatabase implements CaptureDatabase {

	private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_$]*(\\.[a-z_][a-z0-9_$]*)?");

	private static final JsonMapper json = JsonMapper.builder().build();

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

	private final String cursorTable;

	/** The notification channel, the lock's name and the object names' stem. */
	private final String stem;

	/** The change table, schema-qualified when installed or checked. */
	private volatile @Nullable String qualifiedChangeTable;

	/**
	 * Create the PostgreSQL capture for a change table.
	 * @param changeTable the change table's name, optionally schema-qualified
	 */
	public PostgresCaptureDatabase(String changeTable) {
		this.changeTable = changeTable.toLowerCase(Locale.ROOT);
		this.cursorTable = this.changeTable + "_cursor";
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
		if (metaData.getDatabaseMajorVersion() < 13) {
			problems.add("the database is PostgreSQL " + metaData.getDatabaseProductVersion()
					+ ", and the change capture needs PostgreSQL 13 or newer (pg_current_xact_id)");
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
			List<String> columns = columns(connection, table.name());
			if (columns == null) {
				problems.add("table " + table.name() + " does not exist (as the capture's connection sees it, search_path "
						+ searchPath(connection) + ")");
				continue;
			}
			if (table.columns().isEmpty()) {
				problems.add("the URI template \"" + table.template().getTemplate() + "\" of table " + table.name()
						+ " has no variable, so every row would be one resource; name a key column such as {id}");
			}
			for (String variable : table.columns()) {
				if (!columns.contains(variable)) {
					problems.add("variable {" + variable + "} of \"" + table.template().getTemplate() + "\" is not a column of "
							+ table.name() + "; it has " + String.join(", ", columns));
				}
			}
		}
		return problems;
	}

	private static @Nullable List<String> columns(Connection connection, String table) throws SQLException {
		try (PreparedStatement exists = connection
			.prepareStatement("select to_regclass(?) is not null and (select relkind from pg_class where oid = "
					+ "to_regclass(?)) in ('r', 'p')")) {
			exists.setString(1, table);
			exists.setString(2, table);
			try (ResultSet result = exists.executeQuery()) {
				if (!result.next() || !result.getBoolean(1)) {
					return null;
				}
			}
		}
		catch (SQLException ex) {
			// A name to_regclass cannot parse.
			return null;
		}
		List<String> columns = new ArrayList<>();
		try (PreparedStatement statement = connection.prepareStatement(
				"select attname from pg_attribute where attrelid = to_regclass(?) and attnum > 0 and not attisdropped "
						+ "order by attnum")) {
			statement.setString(1, table);
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					columns.add(result.getString(1));
				}
			}
		}
		return columns;
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
		return names;
	}

	private static String qualified(Connection connection, String table) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("select n.nspname || '.' || c.relname "
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
	 * The change table, schema-qualified: the triggers run with the writers' search_path,
	 * which may not find an unqualified name.
	 */
	private String changeTable(Connection connection) throws SQLException {
		String known = this.qualifiedChangeTable;
		if (known != null) {
			return known;
		}
		String qualified = this.changeTable;
		if (qualified.indexOf('.') < 0) {
			try (Statement statement = connection.createStatement();
					ResultSet result = statement.executeQuery("select current_schema()")) {
				result.next();
				qualified = result.getString(1) + "." + qualified;
			}
		}
		this.qualifiedChangeTable = qualified;
		return qualified;
	}

	@Override
	public void install(Connection connection, List<CapturedTable> tables) throws SQLException {
		String changes = changeTable(connection);
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		try (Statement statement = connection.createStatement();
				PreparedStatement lock = connection
					.prepareStatement("select pg_advisory_xact_lock(hashtextextended(?, 0))")) {
			// One installer at a time: nodes of a cluster start together, and PostgreSQL
			// fails one of two concurrent "create table if not exists" of one name.
			lock.setString(1, changes + ":install");
			lock.execute();
			for (String sql : installSql(changes, tables, this.stem, qualifiedNames(connection, tables).keySet())) {
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

	/**
	 * The SQL that installs the capture, as the documentation shows it.
	 * @param changes the change table, schema-qualified
	 * @param tables the captured tables
	 * @param stem the change table's name without schema: the channel's, the function's
	 * and the triggers' stem
	 * @param qualifiedTables the captured tables' qualified names, in the same order
	 * @return the statements, in order
	 */
	static List<String> installSql(String changes, List<CapturedTable> tables, String stem,
			Collection<String> qualifiedTables) {
		String schema = changes.substring(0, changes.indexOf('.'));
		List<String> sql = new ArrayList<>();
		sql.add("create table if not exists " + changes + " (\n" //
				+ "  id bigserial primary key,\n" //
				+ "  txid xid8 not null default pg_current_xact_id(),\n" //
				+ "  tbl text not null,\n" //
				+ "  op \"char\" not null,\n" //
				+ "  new_key jsonb,\n" //
				+ "  old_key jsonb,\n" //
				+ "  at timestamptz not null default clock_timestamp())");
		sql.add("create index if not exists " + stem + "_txid_id on " + changes + " (txid, id)");
		sql.add("create index if not exists " + stem + "_at on " + changes + " (at)");
		sql.add("create table if not exists " + changes + "_cursor (\n" //
				+ "  name text primary key,\n" //
				+ "  source text not null,\n" //
				+ "  txid bigint not null,\n" //
				+ "  id bigint not null,\n" //
				+ "  saved_at timestamptz not null default now())");
		sql.add("create or replace function " + schema + "." + stem + "_capture() returns trigger\n" //
				// As its owner, so that writers need no privilege on the change table; with a
				// fixed search_path, as a security definer function must have.
				+ "language plpgsql security definer set search_path = pg_catalog, pg_temp as $$\n" //
				+ "declare\n" //
				+ "  row_new jsonb;\n" //
				+ "  row_old jsonb;\n" //
				+ "  new_key jsonb;\n" //
				+ "  old_key jsonb;\n" //
				+ "  i int;\n" //
				+ "begin\n" //
				+ "  if TG_OP <> 'DELETE' then\n" //
				+ "    row_new := to_jsonb(NEW);\n" //
				+ "    new_key := '{}';\n" //
				+ "    for i in 0 .. TG_NARGS - 1 loop\n" //
				+ "      new_key := new_key || jsonb_build_object(TG_ARGV[i], row_new -> TG_ARGV[i]);\n" //
				+ "    end loop;\n" //
				+ "  end if;\n" //
				+ "  if TG_OP <> 'INSERT' then\n" //
				+ "    row_old := to_jsonb(OLD);\n" //
				+ "    old_key := '{}';\n" //
				+ "    for i in 0 .. TG_NARGS - 1 loop\n" //
				+ "      old_key := old_key || jsonb_build_object(TG_ARGV[i], row_old -> TG_ARGV[i]);\n" //
				+ "    end loop;\n" //
				+ "    if old_key = new_key then\n" //
				+ "      old_key := null;\n" //
				+ "    end if;\n" //
				+ "  end if;\n" //
				+ "  insert into " + changes + " (tbl, op, new_key, old_key)\n" //
				+ "    values (TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME, left(TG_OP, 1), new_key, old_key);\n" //
				+ "  perform pg_notify('" + stem + "', '');\n" //
				+ "  return null;\n" //
				+ "end\n" //
				+ "$$");
		int index = 0;
		for (String table : qualifiedTables) {
			CapturedTable captured = tables.get(index++);
			StringBuilder arguments = new StringBuilder();
			for (String column : captured.columns()) {
				if (!arguments.isEmpty()) {
					arguments.append(", ");
				}
				arguments.append('\'').append(column.replace("'", "''")).append('\'');
			}
			sql.add("create or replace trigger " + stem + "_capture\n" //
					+ "  after insert or update or delete on " + table + "\n" //
					+ "  for each row execute function " + schema + "." + stem + "_capture(" + arguments + ")");
		}
		return sql;
	}

	@Override
	public void open(Connection connection) throws SQLException {
		changeTable(connection);
		try (Statement statement = connection.createStatement()) {
			statement.execute("listen " + this.stem);
		}
	}

	@Override
	public boolean tryLease(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("select pg_try_advisory_lock(hashtextextended(?, 0))")) {
			statement.setString(1, "mcp-change-capture:" + changeTable(connection));
			try (ResultSet result = statement.executeQuery()) {
				return result.next() && result.getBoolean(1);
			}
		}
	}

	@Override
	public Cursor cursor(Connection connection) throws SQLException {
		String cursors = changeTable(connection) + "_cursor";
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
		try (PreparedStatement statement = connection.prepareStatement("update " + changeTable(connection)
				+ "_cursor set txid = ?, id = ?, saved_at = now() where name = 'capture'")) {
			statement.setLong(1, position.transaction());
			statement.setLong(2, position.row());
			if (statement.executeUpdate() != 1) {
				throw new SQLException("The capture's cursor row is missing");
			}
		}
	}

	@Override
	public Batch read(Connection connection, CapturePosition after, int limit) throws SQLException {
		// One statement, one snapshot: the horizon and the rows below it agree.
		String sql = "with s as (select " + HORIZON + " as xmin) "
				+ "select s.xmin::text::bigint, c.txid::text::bigint, c.id, c.tbl, c.op, c.new_key::text, c.old_key::text, c.at "
				+ "from s left join lateral (select * from " + changeTable(connection) + " c "
				+ "where (c.txid, c.id) > (?::text::xid8, ?) and c.txid < s.xmin order by c.txid, c.id limit ?) c on true";
		List<CapturedRow> rows = new ArrayList<>();
		long xmin = 0;
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, Long.toString(after.transaction()));
			statement.setLong(2, after.row());
			statement.setInt(3, limit);
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					xmin = result.getLong(1);
					long txid = result.getLong(2);
					if (result.wasNull()) {
						continue;
					}
					rows.add(new CapturedRow(new CapturePosition(txid, result.getLong(3)), result.getString(4),
							operation(result.getString(5)), values(result.getString(6)), values(result.getString(7)),
							result.getTimestamp(8).toInstant()));
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

	private static CapturedRow.Operation operation(String op) {
		return switch (op) {
			case "I" -> CapturedRow.Operation.INSERT;
			case "U" -> CapturedRow.Operation.UPDATE;
			case "D" -> CapturedRow.Operation.DELETE;
			default -> throw new IllegalStateException("Unknown captured operation " + op);
		};
	}

	private static @Nullable Map<String, @Nullable Object> values(@Nullable String text) {
		return (text != null) ? json.readValue(text, VALUES) : null;
	}

	@Override
	public @Nullable CapturePosition prune(Connection connection, Duration retention) throws SQLException {
		String changes = changeTable(connection);
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
	 * The rows that wait are those the capture's snapshot sees (of ended transactions)
	 * at or above the horizon; the holder is the session whose {@code backend_xid} is the
	 * horizon. Another role's session shows its transaction id only to a role that may
	 * read all statistics ({@code pg_read_all_stats}, part of {@code pg_monitor}), or to a
	 * superuser; without, the hold is seen, its holder not.
	 */
	@Override
	public @Nullable Hold hold(Connection connection, CapturePosition after) throws SQLException {
		String sql = "with s as (select " + HORIZON + " as x), " //
				+ "w as (select min(c.at) as at from " + changeTable(connection) + " c, s "
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
				+ "join pg_namespace n on n.oid = c.relnamespace where n.nspname || '.' || c.relname = ? "
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
		try (PreparedStatement statement = connection.prepareStatement("select c.oid::bigint, n.nspname || '.' || "
				+ "c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid::bigint = any(?)")) {
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
		String cursors = changeTable(connection) + "_cursor";
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
				ResultSet result = statement.executeQuery(
						"select txid, id from " + changeTable(connection) + "_cursor where name = 'pruned'")) {
			return result.next() ? new CapturePosition(result.getLong(1), result.getLong(2)) : null;
		}
	}

}
