package io.github.mcpsubscriptions.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.notification.InMemoryResourceChangeFeed;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.notification.ResourceListChangedEvent;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publish;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publishInOrder;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Changes across three nodes in one JVM sharing one real Redis, and the 2026 era.
 */
class ClusterTests {

	static final Duration WAIT = Duration.ofSeconds(10);

	private final ClusterNodes nodes = new ClusterNodes(3);

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void clusteringIsAChoiceNotAConsequenceOfRedisOnTheClassPath() {
		try (ConfigurableApplicationContext plain = new SpringApplication(McpTestApplication.class,
				ClusterNodes.Resources.class)
			.run("--server.port=0")) {
			assertThat(plain.getBean(ResourceChangeFeed.class)).isInstanceOf(InMemoryResourceChangeFeed.class);
			assertThat(plain.getBeansOfType(RedisChangeLog.class)).isEmpty();
		}
		ConfigurableApplicationContext clustered = this.nodes.start("a");
		assertThat(clustered.getBean(ResourceChangeFeed.class)).isInstanceOf(RedisChangeLog.class);
	}

	@Test
	void listenStreamOnOneNodeReceivesChangesPublishedOnEveryNodeOnceInOrder() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start("a");
		ConfigurableApplicationContext b = this.nodes.start("b");
		ConfigurableApplicationContext c = this.nodes.start("c");
		try (SseStream stream = client(c).listen("{\"resourceSubscriptions\":[\"c://items\"]}")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			JsonNode ack = json(stream.nextMessage(WAIT).data());
			assertThat(ack.get("method").stringValue()).isEqualTo("notifications/subscriptions/acknowledged");
			publishInOrder(a, "c://items/1");
			publishInOrder(b, "c://items/2");
			publishInOrder(c, "c://items/3");
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

	@Test
	void aResourceListChangedEventOnOneNodeReachesTheListenersOfEveryNodeOnce() throws Exception {
		ConfigurableApplicationContext a = this.nodes.start("a");
		ConfigurableApplicationContext b = this.nodes.start("b");
		try (SseStream onA = client(a).listen("{\"resourcesListChanged\":true}");
				SseStream onB = client(b).listen("{\"resourcesListChanged\":true}")) {
			for (SseStream stream : List.of(onA, onB)) {
				assertThat(json(stream.nextMessage(WAIT).data()).get("method").stringValue())
					.isEqualTo("notifications/subscriptions/acknowledged");
			}

			a.publishEvent(new ResourceListChangedEvent(this));

			for (SseStream stream : List.of(onB, onA)) {
				assertThat(json(stream.nextMessage(WAIT).data()).get("method").stringValue())
					.isEqualTo("notifications/resources/list_changed");
			}
			assertThat(onA.nextMessage(Duration.ofMillis(500))).as("once: from the log, not also at once").isNull();
		}
	}

}
