package io.github.mcpsubscriptions.capture;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.cluster.RedisTestSupport;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.capture.CaptureNodes.recorded;
import static io.github.mcpsubscriptions.capture.ChangeCaptureTests.WAIT;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Two cluster nodes capture one real PostgreSQL through one real Redis: each captured
 * change enters the shared log once, whichever node reads it, and each node hears it
 * once; a reader that reads a change again after a takeover does not append it twice.
 */
class ChangeCaptureClusterTests {

	private final CaptureNodes nodes = new CaptureNodes();

	private final RedisTestSupport redis = new RedisTestSupport(6);

	@AfterEach
	void close() {
		this.nodes.close();
		this.redis.close();
	}

	private ConfigurableApplicationContext start(String name, Class<?>... sources) {
		List<String> properties = new ArrayList<>();
		for (String argument : this.redis.nodeArguments("mcp.cluster.node-name=" + name)) {
			if (!argument.startsWith("--server.port")) {
				properties.add(argument.substring(2));
			}
		}
		return this.nodes.start(sources, properties.toArray(String[]::new));
	}

	@Test
	void eachCapturedChangeIsHeardOnceOnEachNodeAcrossATakeoverAndARereadBatch() {
		ConfigurableApplicationContext a = start("a");
		ConfigurableApplicationContext b = start("b");
		assertThat(a.getBean(CaptureSink.class)).as("the shared log's sink").isNotInstanceOf(FeedCaptureSink.class);
		await().atMost(WAIT)
			.until(() -> a.getBean(CaptureStats.class).isReading() != b.getBean(CaptureStats.class).isReading());
		this.nodes.sql("insert into product values (1, 'tea', 1)");
		this.nodes.sql("update product set price = 2 where id = 1");
		this.nodes.sql("delete from product where id = 1");
		awaitBoth(a, b, 3);
		// The reader's connection ends: one node (either) takes over.
		assertThat(this.nodes.terminateReader()).isEqualTo(1);
		this.nodes.sql("insert into product values (2, 'after the takeover', 1)");
		awaitBoth(a, b, 4);
		// As if a reader had appended a batch and stopped before saving its position: the
		// next reader reads everything again.
		this.nodes.sql("update mcp_change_cursor set txid = 0, id = 0");
		assertThat(this.nodes.terminateReader()).isEqualTo(1);
		this.nodes.sql("insert into product values (3, 'after the reread', 1)");
		awaitBoth(a, b, 5);
		for (ConfigurableApplicationContext node : List.of(a, b)) {
			assertThat(recorded(node)).extracting(ResourceChange::uri, (change) -> change.attributes().get("change"))
				.containsExactly(tuple("catalog://products/1", "created"), tuple("catalog://products/1", "updated"),
						tuple("catalog://products/1", "deleted"), tuple("catalog://products/2", "created"),
						tuple("catalog://products/3", "created"));
		}
		assertThat(this.redis.redis().opsForStream().size(this.redis.prefix() + "{log}")).as("entries in the log")
			.isEqualTo(5);
	}

	@Test
	void changesPrunedBeforeAnyNodeReadThemResyncTheCapturedResourcesSubscribersOnEveryNode() throws Exception {
		ConfigurableApplicationContext a = start("a", ChangeCaptureFaultTests.Gated.class);
		try (SseStream stream = ChangeCaptureTests.listen(a, "catalog://products/{id}\",\"other://things/{id}")) {
			this.nodes.sql("insert into product values (1, 'tea', 1)");
			ChangeCaptureTests.assertNotified(stream, "catalog://products/1", "created");
			a.getBean(ChangeCaptureFaultTests.Gate.class).open = false;
			assertThat(this.nodes.terminateReader()).isEqualTo(1);
			this.nodes.sql("insert into product values (2, 'lost', 1)");
			this.nodes.sql("update mcp_change set at = at - interval '2 days' where new_key ->> 'id' = '2'");
			// Another node reads, finds the row pruned, and tells every node through the
			// log.
			ConfigurableApplicationContext b = start("b");
			SseEvent event = stream.nextMessage(WAIT);
			assertThat(event).as("a resync").isNotNull();
			JsonNode params = json(event.data()).get("params");
			assertThat(params.get("uri").stringValue()).isEqualTo("catalog://products");
			assertThat(params.get("_meta").get(NotificationEngine.RESYNC_META).booleanValue()).isTrue();
			this.nodes.sql("insert into product values (3, 'after', 1)");
			ChangeCaptureTests.assertNotified(stream, "catalog://products/3", "created");
			assertThat(stream.nextMessage(Duration.ofMillis(500))).as("no resync of other://things/{id}").isNull();
			assertThat(b.getBean(CaptureStats.class).getResyncs()).isEqualTo(1);
		}
	}

	private static void awaitBoth(ConfigurableApplicationContext a, ConfigurableApplicationContext b, int count) {
		await().atMost(WAIT).until(() -> recorded(a).size() >= count && recorded(b).size() >= count);
	}

}
