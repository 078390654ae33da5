package io.github.mcpsubscriptions.test;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;
import org.testcontainers.containers.GenericContainer;

import static org.awaitility.Awaitility.await;

/**
 * The Redis of a test run, decided once per JVM: the one {@code -Dmcp.test.redis=host:port}
 * names (used only when named), else a Testcontainers container where Docker answers, else
 * a private {@code redis-server} on a free loopback port, from the binary that the
 * {@code embedded-redis} test dependency carries (Redis 6.2 for Linux and macOS, x86-64 and
 * arm64; {@code -Dmcp.test.redis-server=/path/to/redis-server} names another). The private
 * server is started when first asked for and stopped, by its PID, when the JVM ends. The
 * same binary serves the fault and topology tests' own servers ({@link #executable()}).
 */
public final class TestRedis {

	private static final System.Logger logger = System.getLogger(TestRedis.class.getName());

	private static final Duration START = Duration.ofSeconds(30);

	private static @Nullable Address address;

	private static @Nullable Path executable;

	private TestRedis() {
	}

	/**
	 * Where the run's Redis answers, starting it if need be.
	 * @return its address
	 */
	public static synchronized Address address() {
		if (address == null) {
			address = find();
		}
		return address;
	}

	/**
	 * The {@code redis-server} binary for tests that start servers of their own.
	 * @return its path
	 */
	public static synchronized Path executable() {
		if (executable == null) {
			executable = extract();
		}
		return executable;
	}

	/**
	 * Whether a Redis answers {@code PING} at an address.
	 * @param host the host
	 * @param port the port
	 * @return whether it answered
	 */
	public static boolean ping(String host, int port) {
		try {
			return "PONG".equals(RespClient.send(host, port, List.of("PING")));
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	@SuppressWarnings("resource")
	private static Address find() {
		String given = System.getProperty("mcp.test.redis");
		if (given != null && !given.isBlank()) {
			int colon = given.lastIndexOf(':');
			Address named = (colon > 0) ? new Address(given.substring(0, colon), Integer.parseInt(given.substring(colon + 1)))
					: new Address(given, 6379);
			if (!ping(named.host(), named.port())) {
				throw new IllegalStateException("No Redis answers PING at mcp.test.redis=" + given);
			}
			return named;
		}
		if (DockerEnvironment.isAvailable()) {
			GenericContainer<?> container = new GenericContainer<>("redis:7-alpine").withExposedPorts(6379);
			container.start();
			return new Address(container.getHost(), container.getMappedPort(6379));
		}
		try {
			return startPrivate();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start the tests' own redis-server: " + ex.getMessage(), ex);
		}
	}

	private static Address startPrivate() throws IOException {
		Path directory = ServiceProcesses.directory("mcp-test-redis-");
		int port = ServiceProcesses.freePort();
		Path log = directory.resolve("redis.log");
		Process process = ServiceProcesses.start(List.of(executable().toString(), "--port", Integer.toString(port),
				"--bind", "127.0.0.1", "--dir", directory.toString(), "--save", "", "--appendonly", "no"), directory,
				log);
		ServiceProcesses.stopOnExit(process, directory);
		await().atMost(START).until(() -> !process.isAlive() || ping("127.0.0.1", port));
		if (!process.isAlive()) {
			throw new IOException("redis-server ended at once: " + ServiceProcesses.tail(log));
		}
		logger.log(Level.INFO, "Tests use their own redis-server at 127.0.0.1:{0} (pid {1})", Integer.toString(port),
				Long.toString(process.pid()));
		return new Address("127.0.0.1", port);
	}

	private static Path extract() {
		String named = System.getProperty("mcp.test.redis-server");
		if (named != null && !named.isBlank()) {
			return Path.of(named);
		}
		String resource = resourceName();
		try {
			Path directory = ServiceProcesses.directory("mcp-test-redis-server-");
			ServiceProcesses.deleteOnExit(directory);
			return ServiceProcesses.executable(resource, directory.resolve("redis-server"));
		}
		catch (IOException ex) {
			throw new IllegalStateException("No redis-server for this platform in the embedded-redis test "
					+ "dependency (" + ex.getMessage() + "); name one with -Dmcp.test.redis-server=/path/to/redis-server "
					+ "or a Redis with -Dmcp.test.redis=host:port", ex);
		}
	}

	// The names of the binaries in embedded-redis 1.4.3 (its root pom sets the version).
	private static String resourceName() {
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
		boolean arm = arch.equals("aarch64") || arch.equals("arm64");
		if (os.contains("mac")) {
			return arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
		}
		if (os.contains("linux")) {
			return arm ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
		}
		return "redis-server-for-" + os + "-" + arch;
	}

	/**
	 * A Redis's address.
	 *
	 * @param host the host
	 * @param port the port
	 */
	public record Address(String host, int port) {

		@Override
		public String toString() {
			return this.host + ":" + this.port;
		}

	}

}
