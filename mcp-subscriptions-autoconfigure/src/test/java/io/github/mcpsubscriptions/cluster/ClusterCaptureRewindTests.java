package io.github.mcpsubscriptions.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.capture.CaptureNodes;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A captured database that went back in time (a restore from a backup, a failover to a
 * replica that lost transactions) under a cluster: its positions fall at or below the
 * mark that makes each change appended once. Simulated by moving the mark past anything
 * the database has reached: the capture's subscribers are told to resync, and its changes
 * are delivered again.
 */
@ExtendWith(OutputCaptureExtension.class)
class ClusterCaptureRewindTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final CaptureNodes nodes = new CaptureNodes();

	private final RedisTestSupport redis = new RedisTestSupport(5);

	@AfterEach
	void close() {
		this.nodes.close();
		this.redis.close();
	}

	@Test
	void positionsBehindTheMarkResyncTheCapturedTemplatesAndAreDelivered(CapturedOutput output) throws Exception {
		List<String> properties = new ArrayList<>();
		for (String argument : this.redis.nodeArguments("mcp.cluster.node-name=a")) {
			if (!argument.startsWith("--server.port")) {
				properties.add(argument.substring(2));
			}
		}
		ConfigurableApplicationContext node = this.nodes.start(properties.toArray(String[]::new));
		McpTestClient client = new McpTestClient(((WebServerApplicationContext) node).getWebServer().getPort());
		try (SseStream listen = client.listen("{\"resourceSubscriptions\":[\"catalog://products/{id}\"]}")) {
			assertThat(listen.response().statusCode()).isEqualTo(200);
			this.nodes.sql("insert into product values (1, 'tea', 1)");
			assertThat(uri(listen.next(WAIT, (event) -> mentions(event, "products/1"))))
				.isEqualTo("catalog://products/1");

			// The database went back: what it writes next sorts below what was appended.
			List<String> marks = this.redis.keys().stream().filter((key) -> key.contains("{log}:captured:")).toList();
			assertThat(marks).hasSize(1);
			String mark = this.redis.redis().opsForValue().get(marks.get(0));
			String[] parts = mark.split(":");
			this.redis.redis()
				.opsForValue()
				.set(marks.get(0),
						String.format("%019d:%s:%s", Long.parseLong(parts[0]) + 1_000_000, parts[1], parts[2]));

			this.nodes.sql("insert into product values (2, 'after the restore', 1)");
			SseEvent resync = listen.next(WAIT, (event) -> mentions(event, "resync"));
			assertThat(resync).as("the captured template's subscribers are told to re-read").isNotNull();
			assertThat(uri(resync)).isEqualTo("catalog://products");
			// The change that went below the mark is in the log after the resync (which
			// covers
			// it, so the stream may leave it out); the next one is delivered.
			this.nodes.awaitRecorded(node, 2);
			this.nodes.sql("insert into product values (3, 'then', 1)");
			assertThat(uri(listen.next(WAIT, (event) -> mentions(event, "products/3"))))
				.isEqualTo("catalog://products/3");

			MeterRegistry meters = node.getBean(MeterRegistry.class);
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(meters.get("mcp.cluster.capture.rewinds").functionCounter().count())
					.isEqualTo(1));
			assertThat(output.getOut()).containsOnlyOnce("went back");
		}
	}

	private static boolean mentions(SseEvent event, String text) {
		return event.data() != null && event.data().contains(text);
	}

	private static String uri(SseEvent event) {
		assertThat(event).isNotNull();
		JsonNode params = json(event.data()).get("params");
		return params.get("uri").stringValue();
	}

}
