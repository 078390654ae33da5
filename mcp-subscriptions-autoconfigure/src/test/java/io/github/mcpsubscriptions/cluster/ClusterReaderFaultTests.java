package io.github.mcpsubscriptions.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.publishInOrder;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node's log reader under faults, on a Redis server of the test's own: held back past
 * the log's trim, and Redis restarted empty under it.
 */
class ClusterReaderFaultTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String ITEMS = "{\"resourceSubscriptions\":[\"c://items\"]}";

	private final ClusterNodes nodes = new ClusterNodes(4);

	private RedisServerProcess server;

	private ClusterNodeProcess forked;

	@AfterEach
	void close() throws Exception {
		if (this.forked != null) {
			this.forked.close();
		}
		this.nodes.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void aNodePausedWhileTheLogIsTrimmedPastItsPositionTellsEverySubscriberToResync() throws Exception {
		this.server = new RedisServerProcess();
		ConfigurableApplicationContext publisher = this.nodes.run(this.nodes.redis()
			.nodeArguments("127.0.0.1", this.server.port(), "mcp.cluster.node-name=b", "mcp.cluster.log-size=50"));
		this.forked = ClusterNodeProcess.start(this.nodes.redis()
			.nodeArguments("127.0.0.1", this.server.port(), "mcp.cluster.node-name=a", "mcp.cluster.log-size=50"));
		McpTestClient client = this.forked.client();
		String session = client.initialize();
		assertThat(client.call(session, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode()).isEqualTo(200);
		try (SseStream stream = client.openStream(session); SseStream listen = client.listen(ITEMS)) {
			assertThat(listen.response().statusCode()).isEqualTo(200);
			publishInOrder(publisher, "c://items/0");
			assertThat(uri(stream.nextMessage(WAIT))).isEqualTo("c://items/0");
			assertThat(uri(listen.next(WAIT, (event) -> event.data() != null && event.data().contains("items/0"))))
				.isEqualTo("c://items/0");

			this.forked.pause();
			try {
				for (int i = 1; i <= 62; i++) {
					publishInOrder(publisher, "c://items/" + i);
				}
			}
			finally {
				this.forked.resume();
			}

			assertResyncOrEveryChange(stream, "the 2025 GET stream");
			assertResyncOrEveryChange(listen, "the 2026 listen stream");
			assertThat(this.forked.counter("mcp.cluster.log.gaps")).as(this.forked.output()).isEqualTo(1);
			assertThat(this.forked.output()).containsOnlyOnce("trimmed");
			publishInOrder(publisher, "c://items/63");
			assertThat(uri(stream.next(WAIT, (event) -> event.data() != null && event.data().contains("items/63"))))
				.as("live again")
				.isEqualTo("c://items/63");
		}
	}

	@Test
	void aPausedNodeWithALargerLogSizeThanTheWriterNoticesTheTrimPastItsPosition() throws Exception {
		// A rolling change of mcp.cluster.log-size: the writer trims at 50, the reader
		// keeps
		// the default, so the reader cannot guess the trim from its own setting.
		this.server = new RedisServerProcess();
		ConfigurableApplicationContext publisher = this.nodes.run(this.nodes.redis()
			.nodeArguments("127.0.0.1", this.server.port(), "mcp.cluster.node-name=b", "mcp.cluster.log-size=50"));
		this.forked = ClusterNodeProcess
			.start(this.nodes.redis().nodeArguments("127.0.0.1", this.server.port(), "mcp.cluster.node-name=a"));
		McpTestClient client = this.forked.client();
		String session = client.initialize();
		assertThat(client.call(session, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode()).isEqualTo(200);
		try (SseStream stream = client.openStream(session)) {
			publishInOrder(publisher, "c://items/0");
			assertThat(uri(stream.nextMessage(WAIT))).isEqualTo("c://items/0");

			this.forked.pause();
			try {
				// Answers the read the paused reader had waiting, so that product 3 is
				// not in it.
				publishInOrder(publisher, "c://items/pending");
				publishInOrder(publisher, "c://items/product-3");
				// One node's changes keep their order: they are waited for together, so
				// that the
				// pause stays short of any timeout (a failed read would resync anyway).
				ClusterStats published = publisher.getBean(ClusterStats.class);
				long before = published.getPublished();
				for (int i = 1; i <= 150; i++) {
					ClusterNodes.publish(publisher, "c://items/" + i);
				}
				await().atMost(WAIT).until(() -> published.getPublished() >= before + 150);
			}
			finally {
				this.forked.resume();
			}

			// Never silence: the product-3 change itself, or a resync before the later
			// ones.
			boolean told = false;
			List<String> heard = new ArrayList<>();
			while (!told) {
				SseEvent event = stream.nextMessage(WAIT);
				assertThat(event)
					.as("neither the change of product 3 nor a resync reached the subscriber; " + this.forked.output())
					.isNotNull();
				JsonNode params = json(event.data()).get("params");
				if (params == null || !params.has("uri")) {
					continue;
				}
				JsonNode meta = params.get("_meta");
				heard.add(event.data());
				told = (meta != null && meta.has("io.github.mcpsubscriptions/resync"))
						|| params.get("uri").stringValue().equals("c://items/product-3");
			}
			assertThat(this.forked.counter("mcp.cluster.log.gaps")).as("heard %s", heard).isEqualTo(1);
		}
	}

	@Test
	void redisRestartedEmptyEndsTheStreamsOfLostSessionsAndResyncsListenStreams() throws Exception {
		this.server = new RedisServerProcess();
		String[] settings = { "spring.data.redis.timeout=5s", "mcp.endpoint.heartbeat-interval=200ms",
				"mcp.cluster.poll-timeout=200ms" };
		ConfigurableApplicationContext a = this.nodes.run(this.nodes.redis()
			.nodeArguments("127.0.0.1", this.server.port(), with(settings, "mcp.cluster.node-name=a")));
		ConfigurableApplicationContext b = this.nodes.run(this.nodes.redis()
			.nodeArguments("127.0.0.1", this.server.port(), with(settings, "mcp.cluster.node-name=b")));
		McpTestClient client = ClusterNodes.client(a);
		String lost = client.initialize();
		assertThat(client.call(lost, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode()).isEqualTo(200);
		ClusterHealthIndicator health = a.getBean(ClusterHealthIndicator.class);
		try (SseStream stream = client.openStream(lost); SseStream listen = client.listen(ITEMS)) {
			publishInOrder(b, "c://items/1");
			assertThat(uri(stream.nextMessage(WAIT))).isEqualTo("c://items/1");
			assertThat(uri(listen.next(WAIT, (event) -> event.data() != null && event.data().contains("items/1"))))
				.isEqualTo("c://items/1");

			this.server.kill();
			await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.DOWN));
			this.server.startEmpty();
			await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.UP));

			assertThat(stream.awaitEnd(WAIT)).as("the lost session's stream ends").isTrue();
			assertThat(client.call(lost, "ping", null).statusCode()).as("and the session is unknown").isEqualTo(404);
			SseEvent resync = listen.next(WAIT, (event) -> event.data() != null && event.data().contains("resync"));
			assertThat(resync).as("the listen stream is told to re-read").isNotNull();
			assertThat(a.getBean(MeterRegistry.class).get("mcp.cluster.redis.restarts").functionCounter().count())
				.isEqualTo(1);

			String session = client.initialize();
			assertThat(client.call(session, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode())
				.isEqualTo(200);
			try (SseStream fresh = client.openStream(session)) {
				publishInOrder(b, "c://items/2");
				assertThat(uri(fresh.nextMessage(WAIT))).as("a new session works").isEqualTo("c://items/2");
				assertThat(uri(listen.next(WAIT, (event) -> event.data() != null && event.data().contains("items/2"))))
					.as("the listen stream is live")
					.isEqualTo("c://items/2");
			}
		}
	}

	@Test
	void redisRestartedEmptyBetweenTwoReadsIsFoundByItsRunId() throws Exception {
		this.server = new RedisServerProcess();
		ConfigurableApplicationContext a = this.nodes
			.run(this.nodes.redis().nodeArguments("127.0.0.1", this.server.port(), "mcp.cluster.node-name=a"));
		McpTestClient client = ClusterNodes.client(a);
		String lost = client.initialize();
		assertThat(client.call(lost, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode()).isEqualTo(200);
		try (SseStream stream = client.openStream(lost); SseStream listen = client.listen(ITEMS)) {
			publishInOrder(a, "c://items/1");
			assertThat(uri(stream.nextMessage(WAIT))).isEqualTo("c://items/1");

			// Back before the client's command timeout (a minute here): the reader sees
			// no error.
			this.server.kill();
			this.server.startEmpty();

			assertThat(stream.awaitEnd(WAIT)).as("the lost session's stream ends").isTrue();
			assertThat(client.call(lost, "ping", null).statusCode()).isEqualTo(404);
			assertThat(listen.next(WAIT, (event) -> event.data() != null && event.data().contains("resync")))
				.as("the listen stream is told to re-read")
				.isNotNull();
			assertThat(a.getBean(MeterRegistry.class).get("mcp.cluster.redis.restarts").functionCounter().count())
				.isEqualTo(1);
			publishInOrder(a, "c://items/2");
			assertThat(uri(listen.next(WAIT, (event) -> event.data() != null && event.data().contains("items/2"))))
				.isEqualTo("c://items/2");
		}
	}

	private static String[] with(String[] settings, String property) {
		String[] all = Arrays.copyOf(settings, settings.length + 1);
		all[settings.length] = property;
		return all;
	}

	/**
	 * Read a stream until it has told the client of every change, or that it may have
	 * missed some: never a silent gap.
	 */
	private static void assertResyncOrEveryChange(SseStream stream, String description) throws Exception {
		Set<String> seen = new HashSet<>();
		boolean resync = false;
		while (!resync && seen.size() < 62) {
			SseEvent event = stream.nextMessage(WAIT);
			assertThat(event).as(description + " after " + seen.size() + " of 62 changes and no resync").isNotNull();
			JsonNode params = json(event.data()).get("params");
			if (params == null || !params.has("uri")) {
				continue;
			}
			JsonNode meta = params.get("_meta");
			resync = meta != null && meta.has("io.github.mcpsubscriptions/resync");
			String uri = params.get("uri").stringValue();
			if (!resync && !uri.equals("c://items/0")) {
				seen.add(uri);
			}
		}
	}

	private static String uri(SseEvent event) {
		assertThat(event).isNotNull();
		return json(event.data()).get("params").get("uri").stringValue();
	}

}
