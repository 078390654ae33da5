package io.github.mcpsubscriptions.sample;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.github.mcpsubscriptions.cluster.RedisChangeLog;
import io.github.mcpsubscriptions.test.TestRedis;
import io.github.mcpsubscriptions.tester.McpSession;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis is on the sample's class path for the {@code cluster} profile: without the
 * profile the sample starts and stays healthy with no Redis anywhere; with it, the node
 * clusters against {@code spring.data.redis.*} (the run's {@link TestRedis}, database 11,
 * a key prefix of its own that the test removes once its nodes have stopped). Two nodes
 * of one cluster serve one client through either URL, as {@link McpTester} shows.
 */
class ClusterProfileTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void withoutTheProfileNoRedisIsNeededAndHealthStaysUp() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		try (ConfigurableApplicationContext context = start(null, "--spring.data.redis.port=" + closedPort)) {
			assertThat(context.getBeanNamesForType(RedisChangeLog.class)).isEmpty();
			HttpResponse<String> health = get(context, "/actuator/health");
			assertThat(health.statusCode()).isEqualTo(200);
			assertThat(health.body()).endsWith("\"status\":\"UP\"}").doesNotContain("\"redis\"");
			assertThat(put(context, 1).statusCode()).isEqualTo(200);
		}
	}

	@Test
	void theClusterProfileClustersAgainstSpringDataRedis() throws Exception {
		String prefix = "mcp-sample-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		try (ConfigurableApplicationContext context = start("cluster", "--spring.data.redis.database=11",
				"--mcp.cluster.key-prefix=" + prefix)) {
			assertThat(context.getBeanNamesForType(RedisChangeLog.class)).hasSize(1);
			HttpResponse<String> health = get(context, "/actuator/health");
			assertThat(health.body()).containsPattern("\"redis\":\\{\"details\":\\{[^}]*},\"status\":\"UP\"}");
			// Products 1 to 5 exist on every node, and a change is published to the
			// cluster.
			for (int id = 1; id <= 5; id++) {
				assertThat(put(context, id).statusCode()).isEqualTo(200);
			}
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			Set<String> keys = redis.keys(prefix + "*");
			assertThat(keys).isNotEmpty();
		}
		finally {
			deleteKeys(prefix);
		}
	}

	// tag::cluster[]
	@Test
	void aClientOfOneNodeIsToldOfAChangeMadeOnAnotherInBothEras() {
		String prefix = "mcp-sample-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		try (ConfigurableApplicationContext node1 = start("cluster", "--spring.data.redis.database=11",
				"--mcp.cluster.key-prefix=" + prefix);
				ConfigurableApplicationContext node2 = start("cluster", "--spring.data.redis.database=11",
						"--mcp.cluster.key-prefix=" + prefix)) {
			McpTester one = McpTester.forUrl(uri(node1, "/mcp").toString());
			McpTester two = McpTester.forUrl(uri(node2, "/mcp").toString());
			try (McpSession session = one.session(); McpSubscription listen = one.listen("catalog://products")) {
				McpSubscription product = session.subscribe("catalog://products/2");

				two.callTool("change_price", Map.of("id", 2, "price", 7));

				assertThat(product.awaitNotification().uri()).isEqualTo("catalog://products/2");
				assertThat(listen.awaitNotification().uri()).isEqualTo("catalog://products/2");

				// No sticky sessions: node 2 takes the session's subscribe, node 1's
				// stream delivers.
				McpSubscription products = session.via(two).subscribe("catalog://products");
				two.callTool("change_price", Map.of("id", 3, "price", 8));
				assertThat(products.awaitNotification().uri()).isEqualTo("catalog://products/3");

				// The session's stream moves to node 2; a change made on node 1 reaches
				// it there.
				session.via(two).reopenStream();
				one.callTool("change_price", Map.of("id", 4, "price", 9));
				assertThat(products.awaitNotification().uri()).isEqualTo("catalog://products/4");
			}
		}
		finally {
			deleteKeys(prefix);
		}
	}
	// end::cluster[]

	@Test
	void aProductCreatedOrDeletedThroughOneNodeChangesTheListForClientsOfTheOther() throws Exception {
		String prefix = "mcp-sample-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		try (ConfigurableApplicationContext node1 = start("cluster", "--spring.data.redis.database=11",
				"--mcp.cluster.key-prefix=" + prefix);
				ConfigurableApplicationContext node2 = start("cluster", "--spring.data.redis.database=11",
						"--mcp.cluster.key-prefix=" + prefix)) {
			try (McpSession onNode1 = McpTester.forUrl(uri(node1, "/mcp").toString()).session()) {
				HttpResponse<String> created = this.http.send(HttpRequest.newBuilder(uri(node2, "/api/products"))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Listed\",\"price\":2.00}"))
					.build(), HttpResponse.BodyHandlers.ofString());
				assertThat(created.statusCode()).isEqualTo(201);
				onNode1.awaitListChanged();

				String id = created.body().replaceAll(".*\"id\":(\\d+).*", "$1");
				assertThat(this.http
					.send(HttpRequest.newBuilder(uri(node2, "/api/products/" + id)).DELETE().build(),
							HttpResponse.BodyHandlers.ofString())
					.statusCode()).isEqualTo(204);
				onNode1.awaitListChanged();
			}
		}
		finally {
			deleteKeys(prefix);
		}
	}

	/** Once the nodes have stopped, so that nothing they still write stays behind. */
	private static void deleteKeys(String prefix) {
		TestRedis.Address address = TestRedis.address();
		RedisStandaloneConfiguration database = new RedisStandaloneConfiguration(address.host(), address.port());
		database.setDatabase(11);
		LettuceConnectionFactory connections = new LettuceConnectionFactory(database);
		connections.afterPropertiesSet();
		connections.start();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(connections);
			redis.delete(redis.keys(prefix + "*"));
		}
		finally {
			connections.destroy();
		}
	}

	private static ConfigurableApplicationContext start(String profile, String... args) {
		SpringApplicationBuilder builder = new SpringApplicationBuilder(SampleApplication.class);
		List<String> all = new ArrayList<>(
				List.of("--server.port=0", "--sample.files.root=target/cluster-profile-tests-" + UUID.randomUUID()));
		if (profile != null) {
			builder.profiles(profile);
			// The run's Redis (TestRedis), not the machine's.
			TestRedis.Address redis = TestRedis.address();
			all.addAll(List.of("--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port()));
		}
		all.addAll(List.of(args));
		return builder.run(all.toArray(String[]::new));
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(context, path)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> put(ConfigurableApplicationContext context, int id) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(context, "/api/products/" + id))
			.header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"Cluster " + id + "\",\"price\":1.00}"))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static URI uri(ConfigurableApplicationContext context, String path) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return URI.create("http://127.0.0.1:" + port + path);
	}

}
