package io.github.mcpsubscriptions.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.notification.InMemoryResourceChangeFeed;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes in one JVM, each an application on a random port, sharing one real Redis.
 */
class ClusterTests {

	static final Duration WAIT = Duration.ofSeconds(10);

	private final RedisTestSupport redis = new RedisTestSupport(3);

	private final List<ConfigurableApplicationContext> nodes = new ArrayList<>();

	@AfterEach
	void close() {
		for (ConfigurableApplicationContext node : this.nodes) {
			node.close();
		}
		this.redis.close();
	}

	private ConfigurableApplicationContext node(String name, String... properties) {
		List<String> extra = new ArrayList<>(List.of(properties));
		extra.add("mcp.cluster.node-name=" + name);
		ConfigurableApplicationContext context = new SpringApplication(McpTestApplication.class, Resources.class)
			.run(this.redis.nodeArguments(extra.toArray(String[]::new)));
		this.nodes.add(context);
		return context;
	}

	static McpTestClient client(ConfigurableApplicationContext node) {
		return new McpTestClient(((WebServerApplicationContext) node).getWebServer().getPort());
	}

	static void publish(ConfigurableApplicationContext node, String uri) {
		node.publishEvent(new ResourceChangedEvent(uri));
	}

	@Test
	void clusteringIsAChoiceNotAConsequenceOfRedisOnTheClassPath() {
		try (ConfigurableApplicationContext plain = new SpringApplication(McpTestApplication.class, Resources.class)
			.run("--server.port=0")) {
			assertThat(plain.getBean(ResourceChangeFeed.class)).isInstanceOf(InMemoryResourceChangeFeed.class);
			assertThat(plain.getBeansOfType(RedisChangeLog.class)).isEmpty();
		}
		ConfigurableApplicationContext clustered = node("a");
		assertThat(clustered.getBean(ResourceChangeFeed.class)).isInstanceOf(RedisChangeLog.class);
	}

	@Test
	void listenStreamOnOneNodeReceivesChangesPublishedOnEveryNodeOnceInOrder() throws Exception {
		ConfigurableApplicationContext a = node("a");
		ConfigurableApplicationContext b = node("b");
		ConfigurableApplicationContext c = node("c");
		try (SseStream stream = client(c).listen("{\"resourceSubscriptions\":[\"c://items\"]}")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			JsonNode ack = json(stream.nextMessage(WAIT).data());
			assertThat(ack.get("method").stringValue()).isEqualTo("notifications/subscriptions/acknowledged");
			publish(a, "c://items/1");
			publish(b, "c://items/2");
			publish(c, "c://items/3");
			publish(a, "c://other/4");
			List<String> uris = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				JsonNode notification = json(stream.nextMessage(WAIT).data());
				assertThat(notification.get("method").stringValue()).isEqualTo("notifications/resources/updated");
				assertThat(notification.get("params").get("subscribedUri").stringValue()).isEqualTo("c://items");
				uris.add(notification.get("params").get("uri").stringValue());
			}
			assertThat(uris).containsExactly("c://items/1", "c://items/2", "c://items/3");
			assertThat(stream.nextMessage(Duration.ofMillis(500))).as("no duplicates, nothing unsubscribed").isNull();
		}
		assertThat(a.getBean(ClusterStats.class).getPublished()).isEqualTo(2);
		assertThat(c.getBean(ClusterStats.class).getReceived()).isEqualTo(4);
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
