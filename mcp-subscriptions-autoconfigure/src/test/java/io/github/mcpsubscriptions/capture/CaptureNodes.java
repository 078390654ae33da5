package io.github.mcpsubscriptions.capture;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import io.github.mcpsubscriptions.jpa.PostgresTestDatabase;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Applications that capture the changes of one real PostgreSQL schema of their own: a
 * table {@code product} captured as {@code catalog://products/{id}}, each application on
 * a random port, closed (and the schema dropped) together.
 */
public final class CaptureNodes implements AutoCloseable {

	private final PostgresTestDatabase database = new PostgresTestDatabase();

	private final DataSource dataSource = this.database.dataSource();

	private final List<ConfigurableApplicationContext> nodes = new ArrayList<>();

	public CaptureNodes() {
		sql("create table product (id bigint primary key, name text, price numeric(10, 2))");
	}

	String schema() {
		return this.database.schema();
	}

	DataSource dataSource() {
		return this.dataSource;
	}

	/**
	 * Start an application that captures {@code product}.
	 * @param sources further configuration classes
	 * @param properties further properties, {@code name=value}
	 * @return the application
	 */
	ConfigurableApplicationContext start(Class<?>[] sources, String... properties) {
		List<Class<?>> all = new ArrayList<>(List.of(McpTestApplication.class, Resources.class));
		all.addAll(List.of(sources));
		List<String> arguments = new ArrayList<>(
				List.of("--server.port=0", "--mcp.capture.enabled=true", "--mcp.capture.poll-interval=200ms"));
		boolean tables = false;
		for (String property : properties) {
			arguments.add("--" + property);
			tables |= property.startsWith("mcp.capture.tables");
		}
		if (!tables) {
			arguments.add("--mcp.capture.tables.product=catalog://products/{id}");
		}
		SpringApplication application = new SpringApplication(all.toArray(Class<?>[]::new));
		application
			.addInitializers((context) -> context.getBeanFactory().registerSingleton("dataSource", this.dataSource));
		ConfigurableApplicationContext context = application.run(arguments.toArray(String[]::new));
		this.nodes.add(context);
		return context;
	}

	public ConfigurableApplicationContext start(String... properties) {
		return start(new Class<?>[0], properties);
	}

	static McpTestClient client(ConfigurableApplicationContext node) {
		return new McpTestClient(((WebServerApplicationContext) node).getWebServer().getPort());
	}

	public static List<ResourceChange> recorded(ConfigurableApplicationContext node) {
		return node.getBean(RecordedChanges.class).changes;
	}

	/**
	 * Waits until a node's feed has delivered at least some changes; if it does not in
	 * time, says where the capture stands and which transactions of the server were open
	 * (a transaction of this database holds the capture back, by design).
	 * @param node the node
	 * @param count how many changes
	 */
	public void awaitRecorded(ConfigurableApplicationContext node, int count) {
		try {
			Awaitility.await().atMost(ChangeCaptureTests.WAIT).until(() -> recorded(node).size() >= count);
		}
		catch (ConditionTimeoutException ex) {
			CaptureStats stats = node.getBean(CaptureStats.class);
			throw new AssertionError("Expected " + count + " changes, got " + recorded(node) + "; the capture is at "
					+ stats.getPosition() + " (connected " + stats.isConnected() + ", reading " + stats.isReading()
					+ "); open transactions: " + openTransactions(), ex);
		}
	}

	private String openTransactions() {
		List<String> open = new ArrayList<>();
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("select datname, application_name, state, backend_xid, "
						+ "now() - xact_start, left(query, 80) from pg_stat_activity where backend_xid is not null")) {
			while (result.next()) {
				open.add(result.getString(1) + "/" + result.getString(2) + " " + result.getString(3) + " xid "
						+ result.getString(4) + " for " + result.getString(5) + ": " + result.getString(6));
			}
		}
		catch (SQLException ex) {
			open.add(ex.toString());
		}
		return open.toString();
	}

	/**
	 * Runs statements in one transaction of their own, in the schema.
	 * @param statements the statements
	 */
	public void sql(String... statements) {
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

	/**
	 * Opens a connection to the schema, not in auto-commit: a transaction the test ends.
	 * @return the connection
	 */
	Connection transaction() throws SQLException {
		Connection connection = this.dataSource.getConnection();
		connection.setAutoCommit(false);
		return connection;
	}

	/**
	 * Opens a connection to the schema as another role, in auto-commit.
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

	/**
	 * Opens a connection to the server's {@code postgres} database (which every server
	 * has), not in auto-commit.
	 * @return the connection
	 */
	Connection otherDatabaseTransaction() throws SQLException {
		String url;
		String user;
		try (Connection connection = this.dataSource.getConnection()) {
			url = connection.getMetaData().getURL();
			user = connection.getMetaData().getUserName();
		}
		Connection connection = DriverManager.getConnection(
				url.replaceFirst("/[^/?]+(\\?|$)", "/postgres$1").replaceFirst("currentSchema=[^&]*", ""), user, "");
		connection.setAutoCommit(false);
		return connection;
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

	/**
	 * Ends the capture connection that holds this schema's lease (only this test's: other
	 * tests on the server capture too), as an operator would with pg_terminate_backend.
	 * @return how many connections were ended
	 */
	long terminateReader() {
		return queryLong("select count(pg_terminate_backend(l.pid)) " + LEASE_HOLDERS
				+ "hashtextextended('mcp-change-capture:" + schema() + ".mcp_change', 0)");
	}

	/**
	 * How many connections hold this schema's capture lease.
	 * @return the count
	 */
	long leaseHolders() {
		return queryLong("select count(*) " + LEASE_HOLDERS + "hashtextextended('mcp-change-capture:" + schema()
				+ ".mcp_change', 0)");
	}

	private static final String LEASE_HOLDERS = "from pg_locks l join pg_stat_activity a on a.pid = l.pid "
			+ "where a.application_name = 'mcp-change-capture' and l.locktype = 'advisory' and l.granted "
			+ "and ((l.classid::bigint << 32) | l.objid::bigint) = ";

	@Override
	public void close() {
		for (ConfigurableApplicationContext node : this.nodes) {
			node.close();
		}
		this.database.close();
	}

	static class Resources {

		@Bean
		Products products() {
			return new Products();
		}

		@Bean
		RecordedChanges recordedChanges(ResourceChangeFeed feed) {
			return new RecordedChanges(feed);
		}

	}

	static class Products {

		@McpResource(uri = "catalog://products")
		String all() {
			return "[]";
		}

		@McpResource(uri = "catalog://products/{id}")
		String product(String id) {
			return id;
		}

		@McpResource(uri = "other://things/{id}")
		String thing(String id) {
			return id;
		}

	}

	/**
	 * What the node's change feed delivers, from before the capture starts.
	 */
	static final class RecordedChanges {

		final List<ResourceChange> changes = new CopyOnWriteArrayList<>();

		RecordedChanges(ResourceChangeFeed feed) {
			feed.subscribe(this.changes::add);
		}

	}

}
