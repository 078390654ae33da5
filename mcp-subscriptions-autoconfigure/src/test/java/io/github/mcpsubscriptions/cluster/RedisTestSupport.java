package io.github.mcpsubscriptions.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import io.github.mcpsubscriptions.test.TestRedis;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A real Redis for cluster tests, the run's {@link TestRedis}: the one the system
 * property {@code mcp.test.redis} ({@code host:port}) names, else a Testcontainers
 * container where Docker works, else a redis-server of the run's own on a free port. The
 * tests never skip. Each test gets its own key prefix in one of the databases 1 to 7 and
 * removes its keys afterwards.
 */
public final class RedisTestSupport implements AutoCloseable {

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
		TestRedis.Address address = TestRedis.address();
		this.host = address.host();
		this.port = address.port();
		this.database = database;
		this.prefix = "mcp-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(this.host, this.port);
		configuration.setDatabase(database);
		this.connectionFactory = new LettuceConnectionFactory(configuration);
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.redis = new StringRedisTemplate(this.connectionFactory);
	}

	/**
	 * Whether a Redis answers {@code PING} at an address.
	 * @param host the host
	 * @param port the port
	 * @return whether it answered
	 */
	public static boolean ping(String host, int port) {
		return TestRedis.ping(host, port);
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
		Set<String> keys = new TreeSet<>();
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
