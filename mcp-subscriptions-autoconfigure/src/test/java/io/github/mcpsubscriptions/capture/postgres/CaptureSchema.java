package io.github.mcpsubscriptions.capture.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.capture.CaptureDatabase.Batch;
import io.github.mcpsubscriptions.capture.CapturePosition;
import io.github.mcpsubscriptions.capture.CapturedRow;
import io.github.mcpsubscriptions.capture.CapturedTable;
import io.github.mcpsubscriptions.jpa.PostgresTestDatabase;
import io.github.mcpsubscriptions.resource.UriTemplate;

/**
 * A schema of its own in a real PostgreSQL with the capture's database side and nothing
 * else: its check, its install and its reads, called as the capture calls them, and roles
 * of the test's own (dropped on close).
 */
final class CaptureSchema implements AutoCloseable {

	private final PostgresTestDatabase database = new PostgresTestDatabase();

	private final DataSource dataSource = this.database.dataSource();

	private final String roles = "mcp_role_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8) + "_";

	private final List<String> created = new ArrayList<>();

	private List<CapturedTable> installed = List.of();

	final PostgresCaptureDatabase capture = new PostgresCaptureDatabase("mcp_change");

	String schema() {
		return this.database.schema();
	}

	static CapturedTable table(String name, String template) {
		return new CapturedTable(name, UriTemplate.parse(template));
	}

	/**
	 * Runs statements in one transaction of their own, in the schema, as its owner.
	 * @param statements the statements
	 */
	void sql(String... statements) {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(false);
			try (Statement statement = connection.createStatement()) {
				for (String sql : statements) {
					statement.execute(sql);
				}
			}
			connection.commit();
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	long queryLong(String sql) {
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery(sql)) {
			result.next();
			return result.getLong(1);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	String queryString(String sql) {
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery(sql)) {
			result.next();
			return result.getString(1);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	List<String> check(CapturedTable... tables) throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			return this.capture.check(connection, List.of(tables));
		}
	}

	void install(CapturedTable... tables) throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			this.capture.install(connection, List.of(tables));
		}
		this.installed = List.of(tables);
	}

	/**
	 * Reads what the capture would read from the start of the record, on a connection of
	 * its own, as the capture's reader does.
	 * @return the batch
	 */
	Batch read() throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			this.capture.qualifiedNames(connection, this.installed);
			return this.capture.read(connection, CapturePosition.START, 1000);
		}
	}

	List<CapturedRow> rows() throws SQLException {
		return read().rows();
	}

	/**
	 * Creates a role with nothing but PostgreSQL's defaults (CONNECT and TEMP on the
	 * database, through PUBLIC), dropped on close.
	 * @param name the name's end
	 * @return the role's name
	 */
	String role(String name) {
		String role = this.roles + name;
		sql("create role " + role + " login");
		this.created.add(role);
		return role;
	}

	/**
	 * Opens a connection to the schema as a role, in auto-commit.
	 * @param role the role (the server trusts local connections)
	 * @return the connection
	 */
	Connection connectAs(String role) throws SQLException {
		String url;
		try (Connection connection = this.dataSource.getConnection()) {
			url = connection.getMetaData().getURL();
		}
		return DriverManager.getConnection(url, role, "");
	}

	@Override
	public void close() {
		for (String role : this.created) {
			sql("drop owned by " + role, "drop role " + role);
		}
		this.database.close();
	}

}
