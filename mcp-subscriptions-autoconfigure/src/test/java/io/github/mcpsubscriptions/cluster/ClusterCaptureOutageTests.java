package io.github.mcpsubscriptions.cluster;

import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.capture.CaptureHealthIndicator;
import io.github.mcpsubscriptions.capture.CaptureNodes;
import io.github.mcpsubscriptions.notification.ResourceChange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * The change capture of a cluster node while its Redis is down: what is committed
 * meanwhile is not skipped (the capture cannot append, so it does not move on), the
 * capture's health is down, and when Redis is back the change enters the log once.
 */
class ClusterCaptureOutageTests {

	private final CaptureNodes nodes = new CaptureNodes();

	private final RedisTestSupport redis = new RedisTestSupport(7);

	private RedisServerProcess server;

	@AfterEach
	void close() throws Exception {
		this.nodes.close();
		this.redis.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void aChangeCommittedWhileRedisIsDownEntersTheLogWhenItIsBack() throws Exception {
		this.server = new RedisServerProcess();
		List<String> properties = new ArrayList<>();
		for (String argument : this.redis.nodeArguments("127.0.0.1", this.server.port(), "mcp.cluster.node-name=a",
				"spring.data.redis.timeout=1s", "mcp.cluster.poll-timeout=200ms", "mcp.capture.max-back-off=500ms")) {
			if (!argument.startsWith("--server.port")) {
				properties.add(argument.substring(2));
			}
		}
		ConfigurableApplicationContext node = this.nodes.start(properties.toArray(String[]::new));
		CaptureHealthIndicator health = node.getBean(CaptureHealthIndicator.class);
		this.nodes.sql("insert into product values (1, 'tea', 1)");
		this.nodes.awaitRecorded(node, 1);
		this.server.kill();
		this.nodes.sql("insert into product values (2, 'while Redis is down', 1)");
		await().atMost(ClusterTests.WAIT).until(() -> health.health(true).getStatus().equals(Status.DOWN));
		this.server.start();
		await().atMost(ClusterTests.WAIT).until(() -> health.health(true).getStatus().equals(Status.UP));
		this.nodes.awaitRecorded(node, 2);
		assertThat(CaptureNodes.recorded(node))
			.extracting(ResourceChange::uri, (change) -> change.attributes().get("change"))
			.containsExactly(tuple("catalog://products/1", "created"), tuple("catalog://products/2", "created"));
	}

}
