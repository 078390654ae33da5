package io.github.mcpsubscriptions.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import io.github.mcpsubscriptions.test.DockerEnvironment;
import org.testcontainers.containers.GenericContainer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A real Redis for cluster tests: the one the system property {@code mcp.test.redis}
 * ({@code host:port}) names, else a Testcontainers container where Docker works, else the
 * machine's Redis at 127.0.0.1:6379. A probe decides once; when neither is there the
 * tests fail, they never skip. Each test gets its own key prefix in one of the databases
 * 1 to 7 and removes its keys afterwards.
 */
public final class RedisTestSupport implements AutoCloseable {

	private static final String LOCAL_HOST = "127.0.0.1";

	private static final int LOCAL_PORT = 6379;

	private static volatile String[] hostAndPort;

	private final String host;

	private final int port;

	private final int database;

	private final String prefix;

	private final LettuceConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	/**
	 * A namespace for one test.
	 * @param database the Redis database, 1 to 7
	 */
	public RedisTestSupport(int database) {
		if (database < 1 || database > 7) {
			throw new IllegalArgumentException("Cluster tests use Redis databases 1 to 7, not " + database);
		}
		String[] address = address();
		this.host = address[0];
		this.port = Integer.parseInt(address[1]);
		this.database = database;
		this.prefix = "mcp-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(this.host, this.port);
		configuration.setDatabase(database);
		this.connectionFactory = new LettuceConnectionFactory(configuration);
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.redis = new StringRedisTemplate(this.connectionFactory);
	}

	private static synchronized String[] address() {
		if (hostAndPort == null) {
			hostAndPort = probe();
		}
		return hostAndPort;
	}

	@SuppressWarnings("resource")
	private static String[] probe() {
		String given = System.getProperty("mcp.test.redis");
		if (given != null && !given.isBlank()) {
			int colon = given.lastIndexOf(':');
			String host = (colon > 0) ? given.substring(0, colon) : given;
			String port = (colon > 0) ? given.substring(colon + 1) : Integer.toString(LOCAL_PORT);
			if (!ping(host, Integer.parseInt(port))) {
				throw new IllegalStateException("No Redis answers at mcp.test.redis=" + given);
			}
			return new String[] { host, port };
		}
		if (DockerEnvironment.isAvailable()) {
			GenericContainer<?> container = new GenericContainer<>("redis:7-alpine").withExposedPorts(6379);
			container.start();
			return new String[] { container.getHost(), Integer.toString(container.getMappedPort(6379)) };
		}
		if (!ping(LOCAL_HOST, LOCAL_PORT)) {
			throw new IllegalStateException("Cluster tests need a real Redis: no Docker for Testcontainers, and no "
					+ "Redis answers at " + LOCAL_HOST + ":" + LOCAL_PORT);
		}
		return new String[] { LOCAL_HOST, Integer.toString(LOCAL_PORT) };
	}

	/**
	 * Whether a Redis answers {@code PING} at an address.
	 * @param host the host
	 * @param port the port
	 * @return whether it answered
	 */
	public static boolean ping(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), 1000);
			socket.setSoTimeout(1000);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = new byte[7];
			int read = in.readNBytes(reply, 0, reply.length);
			return new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * The arguments that make an application a cluster node on this namespace.
	 * @param extra further {@code name=value} properties
	 * @return command-line arguments
	 */
	public String[] nodeArguments(String... extra) {
		return nodeArguments(this.host, this.port, extra);
	}

	/**
	 * The arguments that make an application a cluster node on this namespace, on another
	 * Redis server.
	 * @param host the Redis host
	 * @param port the Redis port
	 * @param extra further {@code name=value} properties
	 * @return command-line arguments
	 */
	public String[] nodeArguments(String host, int port, String... extra) {
		List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--spring.data.redis.host=" + host,
				"--spring.data.redis.port=" + port, "--spring.data.redis.database=" + this.database,
				"--mcp.cluster.enabled=true", "--mcp.cluster.key-prefix=" + this.prefix));
		for (String property : extra) {
			arguments.add("--" + property);
		}
		return arguments.toArray(String[]::new);
	}

	public String prefix() {
		return this.prefix;
	}

	public StringRedisTemplate redis() {
		return this.redis;
	}

	/**
	 * The keys under this test's prefix.
	 * @return the keys
	 */
	public Set<String> keys() {
		Set<String> keys = new java.util.TreeSet<>();
		try (var cursor = this.redis.scan(ScanOptions.scanOptions().match(this.prefix + "*").count(1000).build())) {
			cursor.forEachRemaining(keys::add);
		}
		return keys;
	}

	@Override
	public void close() {
		Set<String> keys = keys();
		if (!keys.isEmpty()) {
			this.redis.delete(keys);
		}
		this.connectionFactory.destroy();
	}

}
