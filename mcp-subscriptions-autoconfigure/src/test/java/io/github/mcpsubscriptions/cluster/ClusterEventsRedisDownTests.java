package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsubscriptions.events.EventsTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node whose Redis is down answers {@code events/poll} (which needs the shared event
 * log) with 503 and {@code Retry-After}, reports itself down, and polls again, cursors
 * included, once Redis is back, without a restart.
 */
class ClusterEventsRedisDownTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String POLL = "\"name\":\"catalog.product.changed\",\"arguments\":{}";

	private final ClusterNodes nodes = new ClusterNodes(7);

	private RedisServerProcess server;

	@AfterEach
	void close() throws Exception {
		this.nodes.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void redisKilledAPollAnswers503AndTheNodeRecovers() throws Exception {
		this.server = new RedisServerProcess();
		ConfigurableApplicationContext node = this.nodes.run(new Class<?>[] { EventsTestApplication.class },
				this.nodes.redis()
					.nodeArguments("127.0.0.1", this.server.port(), "mcp.cluster.node-name=a",
							"mcp.cluster.poll-timeout=200ms", "mcp.events.enabled=true"));
		McpTestClient client = client(node);
		String cursor = result(client.stateless("events/poll", POLL)).get("cursor").stringValue();
		ClusterHealthIndicator health = node.getBean(ClusterHealthIndicator.class);

		this.server.kill();
		await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.DOWN));
		HttpResponse<String> down = client.stateless("events/poll", POLL + ",\"cursor\":\"" + cursor + "\"");
		assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
		assertThat(down.headers().firstValue("Retry-After")).isPresent();
		assertThat(json(down.body()).get("error").get("code").intValue()).isEqualTo(-32000);
		// What needs no log still answers.
		assertThat(client.stateless("events/list", "").statusCode()).isEqualTo(200);

		this.server.start();
		await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.UP));
		await().atMost(WAIT)
			.until(() -> client.stateless("events/poll", POLL + ",\"cursor\":\"" + cursor + "\"").statusCode() == 200);
		JsonNode resumed = result(client.stateless("events/poll", POLL + ",\"cursor\":\"" + cursor + "\""));
		assertThat(resumed.get("truncated").booleanValue()).as("the log persisted across Redis's restart").isFalse();
	}

	private static JsonNode result(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json(response.body()).get("result");
	}

}
