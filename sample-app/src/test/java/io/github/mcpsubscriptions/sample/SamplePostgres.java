package io.github.mcpsubscriptions.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;

import io.github.mcpsubscriptions.test.TestPostgres;
import io.github.mcpsubscriptions.test.TestRedis;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * A schema of its own in a real PostgreSQL for the sample's {@code postgres} profile, so
 * that the tests leave the {@code product} table of the machine's database (which a
 * reader of the docs uses) alone. Which PostgreSQL the run's {@link TestPostgres} decides
 * once: the one {@code -Dmcp.test.postgres=jdbc:postgresql://host:port/database} names
 * (user {@code mcp.test.postgres.user}, {@code postgres} by default, no password), else a
 * Testcontainers container where Docker works, else a PostgreSQL of the run's own. There
 * is no skip: without a database the tests fail and say what they need.
 * <p>
 * The sample reaches the schema through {@code currentSchema} in its data source URL. The
 * tests write as another writer would ({@link #execute}): on a connection of their own
 * whose search path does not include the schema, naming the table with its schema.
 */
final class SamplePostgres implements AutoCloseable {

	private static final String USER = TestPostgres.user();

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	private final String schema = "mcp_sample_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	SamplePostgres() {
		execute("create schema " + this.schema);
	}

	String schema() {
		return this.schema;
	}

	/**
	 * The sample's data source URL: the schema is its current schema.
	 * @return the URL
	 */
	String sampleUrl() {
		String base = url();
		return base + (base.contains("?") ? "&" : "?") + "currentSchema=" + this.schema;
	}

	/**
	 * Creates the catalogue as the profile does (its own scripts), before the sample
	 * starts, so that its products 1-5 are not changes the capture reports to the tests'
	 * subscribers.
	 */
	void createCatalogue() {
		try (Connection connection = DriverManager.getConnection(sampleUrl(), USER, "")) {
			ResourceDatabasePopulator scripts = new ResourceDatabasePopulator(
					new ClassPathResource("schema-postgresql.sql"), new ClassPathResource("data-postgresql.sql"));
			scripts.execute(new SingleConnectionDataSource(connection, true));
		}
		catch (SQLException ex) {
			throw failure(ex);
		}
	}

	/**
	 * Runs one statement as another writer of the database would, in its own transaction;
	 * {@code %s} stands for the schema.
	 * @param sql the statement
	 * @param args its parameters
	 * @return the rows it changed
	 */
	int execute(String sql, Object... args) {
		try (Connection connection = DriverManager.getConnection(url(), USER, "");
				PreparedStatement statement = connection.prepareStatement(sql.replace("%s", this.schema))) {
			for (int i = 0; i < args.length; i++) {
				statement.setObject(i + 1, args[i]);
			}
			return statement.executeUpdate();
		}
		catch (SQLException ex) {
			throw failure(ex);
		}
	}

	/**
	 * Inserts a product as another writer would, the identity column giving its id.
	 * @param name its name
	 * @param price its price
	 * @return its id
	 */
	long insert(String name, String price) {
		return queryLongs("insert into %s.product (name, price) values (?, ?::numeric) returning id", name, price)
			.get(0);
	}

	List<Long> queryLongs(String sql, Object... args) {
		try (Connection connection = DriverManager.getConnection(url(), USER, "");
				PreparedStatement statement = connection.prepareStatement(sql.replace("%s", this.schema))) {
			for (int i = 0; i < args.length; i++) {
				statement.setObject(i + 1, args[i]);
			}
			List<Long> values = new ArrayList<>();
			try (ResultSet rows = statement.executeQuery()) {
				while (rows.next()) {
					values.add(rows.getLong(1));
				}
			}
			return values;
		}
		catch (SQLException ex) {
			throw failure(ex);
		}
	}

	@Override
	public void close() {
		execute("drop schema if exists " + this.schema + " cascade");
	}

	/**
	 * Starts a sample node on this schema.
	 * @param profiles the Spring profiles, {@code postgres} among them ({@code cluster}
	 * among them points the node at the run's {@link TestRedis})
	 * @param args more command-line arguments
	 * @return the running application
	 */
	ConfigurableApplicationContext start(String profiles, String... args) {
		List<String> all = new ArrayList<>(List.of("--server.port=0", "--spring.profiles.active=" + profiles,
				"--spring.datasource.url=" + sampleUrl(), "--spring.datasource.username=" + USER,
				"--sample.files.root=target/postgres-profile-tests-" + UUID.randomUUID(),
				"--sample.files.watch=false"));
		if (List.of(profiles.split(",")).contains("cluster")) {
			TestRedis.Address redis = TestRedis.address();
			all.addAll(List.of("--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port()));
		}
		all.addAll(List.of(args));
		return new SpringApplicationBuilder(SampleApplication.class).run(all.toArray(String[]::new));
	}

	static String baseUrl(ConfigurableApplicationContext context) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return "http://127.0.0.1:" + port;
	}

	/**
	 * Sends a request to the sample's REST API.
	 * @param context the node
	 * @param method the HTTP method
	 * @param path the path
	 * @param json the body, or {@code null}
	 * @return the response
	 */
	static HttpResponse<String> rest(ConfigurableApplicationContext context, String method, String path, String json)
			throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl(context) + path));
		if (json != null) {
			request.header("Content-Type", "application/json");
		}
		request.method(method,
				(json != null) ? HttpRequest.BodyPublishers.ofString(json) : HttpRequest.BodyPublishers.noBody());
		return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * The changes this node's capture has read and published
	 * ({@code mcp.capture.changes}).
	 * @param context the node
	 * @return their count
	 */
	static double captured(ConfigurableApplicationContext context) {
		return context.getBean(MeterRegistry.class)
			.find("mcp.capture.changes")
			.meters()
			.stream()
			.flatMap((meter) -> StreamSupport.stream(meter.measure().spliterator(), false))
			.filter((measurement) -> measurement.getStatistic() == Statistic.COUNT)
			.mapToDouble(Measurement::getValue)
			.sum();
	}

	private static String url() {
		return TestPostgres.url();
	}

	private static IllegalStateException failure(SQLException ex) {
		return new IllegalStateException("The postgres profile's tests need a real PostgreSQL; none answers at " + url()
				+ " (user " + USER + ", no password). " + TestPostgres.help() + " " + ex.getMessage(), ex);
	}

}
