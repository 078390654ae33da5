package io.github.mcpsubscriptions.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.TestUsers;
import org.awaitility.Awaitility;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Cluster nodes in one JVM: each an application on a random port, all sharing one real
 * Redis namespace, closed (and the namespace cleaned) together. {@code X-Test-User} names
 * a request's principal.
 */
final class ClusterNodes implements AutoCloseable {

	private final RedisTestSupport redis;

	private final List<ConfigurableApplicationContext> nodes = new ArrayList<>();

	ClusterNodes(int database) {
		this.redis = new RedisTestSupport(database);
	}

	RedisTestSupport redis() {
		return this.redis;
	}

	ConfigurableApplicationContext start(String name, String... properties) {
		List<String> extra = new ArrayList<>(List.of(properties));
		extra.add("mcp.cluster.node-name=" + name);
		return run(this.redis.nodeArguments(extra.toArray(String[]::new)));
	}

	/**
	 * A node on a Redis topology of the test's own, configured through Spring Boot's
	 * properties for it.
	 */
	ConfigurableApplicationContext start(String name, RedisTopology topology, String... properties) {
		List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--mcp.cluster.enabled=true",
				"--mcp.cluster.key-prefix=" + this.redis.prefix(), "--mcp.cluster.node-name=" + name));
		topology.properties().forEach((property) -> arguments.add("--" + property));
		for (String property : properties) {
			arguments.add("--" + property);
		}
		return run(arguments.toArray(String[]::new));
	}

	ConfigurableApplicationContext run(String... arguments) {
		return run(new Class<?>[0], arguments);
	}

	/**
	 * Start a node with further configuration.
	 * @param sources further configuration classes
	 * @param arguments command-line arguments
	 * @return the node
	 */
	ConfigurableApplicationContext run(Class<?>[] sources, String... arguments) {
		List<Class<?>> all = new ArrayList<>(List.of(McpTestApplication.class, Resources.class, TestUsers.class));
		all.addAll(List.of(sources));
		ConfigurableApplicationContext context = new SpringApplication(all.toArray(Class<?>[]::new)).run(arguments);
		this.nodes.add(context);
		return context;
	}

	static McpTestClient client(ConfigurableApplicationContext node) {
		return new McpTestClient(((WebServerApplicationContext) node).getWebServer().getPort());
	}

	static void publish(ConfigurableApplicationContext node, String uri) {
		node.publishEvent(new ResourceChangedEvent(uri));
	}

	/**
	 * Publish a change and wait until it is in the log: publication order across nodes is
	 * the order of the log.
	 */
	static void publishInOrder(ConfigurableApplicationContext node, String uri) {
		ClusterStats stats = node.getBean(ClusterStats.class);
		long before = stats.getPublished();
		publish(node, uri);
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> stats.getPublished() > before);
	}

	@Override
	public void close() {
		for (ConfigurableApplicationContext node : this.nodes) {
			node.close();
		}
		this.redis.close();
	}

	static class Resources {

		@Bean
		Items items() {
			return new Items();
		}

	}

	static class Items {

		@McpResource(uri = "c://items")
		String all() {
			return "[]";
		}

		@McpResource(uri = "c://items/{id}")
		String item(String id) {
			return id;
		}

		@McpResource(uri = "c://other/{id}")
		String other(String id) {
			return id;
		}

	}

}
