package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publish;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis lost at run time and back again, on a Redis server of the test's own.
 */
class ClusterOutageTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final ClusterNodes nodes = new ClusterNodes(5);

	private RedisServerProcess server;

	@AfterEach
	void close() throws Exception {
		this.nodes.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void requestsAnswer503WhileRedisIsDownStreamsStayOpenAndRecoverWithResyncs() throws Exception {
		this.server = new RedisServerProcess();
		ConfigurableApplicationContext node = this.nodes.run(this.nodes.redis()
			.nodeArguments("127.0.0.1", this.server.port(), "mcp.cluster.node-name=a", "spring.data.redis.timeout=2s",
					"mcp.endpoint.heartbeat-interval=200ms", "mcp.cluster.poll-timeout=200ms"));
		McpTestClient client = client(node);
		String session = client.initialize();
		assertThat(client.call(session, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode()).isEqualTo(200);
		ClusterHealthIndicator health = node.getBean(ClusterHealthIndicator.class);
		try (SseStream stream = client.openStream(session)) {
			publish(node, "c://items/1");
			assertThat(json(stream.nextMessage(WAIT).data()).get("params").get("uri").stringValue())
				.isEqualTo("c://items/1");

			this.server.kill();
			await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.DOWN));
			HttpResponse<String> refused = client.call(session, "ping", null);
			assertThat(refused.statusCode()).isEqualTo(503);
			assertThat(refused.headers().firstValue("Retry-After")).isPresent();
			assertThat(json(refused.body()).get("error").get("code").intValue()).isEqualTo(-32000);
			HttpResponse<String> initialize = client.post(client.initializeBody("2025-11-25"));
			assertThat(initialize.statusCode()).isEqualTo(503);
			publish(node, "c://items/2");
			assertThat(stream.next(WAIT, SseEvent::isComment)).as("keep-alives on the open stream").isNotNull();
			assertThat(stream.awaitEnd(Duration.ofMillis(500))).as("the stream stays open").isFalse();
			assertThat(node.getBean(MeterRegistry.class).get("mcp.cluster.redis.errors").functionCounter().count())
				.isPositive();

			this.server.start();
			await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.UP));
			JsonNode resync = json(stream.nextMessage(WAIT).data()).get("params");
			assertThat(resync.get("uri").stringValue()).isEqualTo("c://items");
			assertThat(resync.get("_meta").get("io.github.mcpsubscriptions/resync").booleanValue()).isTrue();
			assertThat(client.call(session, "ping", null).statusCode()).isEqualTo(200);
			publish(node, "c://items/3");
			assertThat(
					json(stream.next(WAIT, (event) -> event.data() != null && event.data().contains("items/3")).data())
						.get("params")
						.get("uri")
						.stringValue())
				.isEqualTo("c://items/3");
		}
	}

}
