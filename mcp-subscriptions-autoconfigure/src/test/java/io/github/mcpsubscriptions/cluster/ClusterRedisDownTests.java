package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.notification.ResourceListChangedEvent;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node whose Redis is down (killed) or hangs (paused) answers what needs Redis with 503
 * and {@code Retry-After} within a bound, without queueing for Redis, and keeps answering
 * 2026-era requests that need no session, and tells the log of the outage without a WARN
 * per request.
 */
@ExtendWith(OutputCaptureExtension.class)
class ClusterRedisDownTests {

	/** Well above the default command timeout of 2 s, far below Lettuce's own 60 s. */
	private static final Duration BOUND = Duration.ofSeconds(5);

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final int CONCURRENT = 50;

	private final ClusterNodes nodes = new ClusterNodes(7);

	private final ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT);

	private RedisServerProcess server;

	@AfterEach
	void close() throws Exception {
		this.pool.shutdownNow();
		this.nodes.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	private ConfigurableApplicationContext startNode(String... properties) throws Exception {
		this.server = new RedisServerProcess();
		// Few request threads, so that requests held for Redis would show as a node that
		// stops answering.
		List<String> arguments = new ArrayList<>(
				List.of("mcp.cluster.node-name=a", "server.tomcat.threads.max=10", "mcp.cluster.poll-timeout=200ms"));
		arguments.addAll(List.of(properties));
		return this.nodes
			.run(this.nodes.redis().nodeArguments("127.0.0.1", this.server.port(), arguments.toArray(String[]::new)));
	}

	@Test
	void redisKilledRequestsThatNeedItAnswer503AtOnceStatelessOnesAnswerAndTheNodeRecovers(CapturedOutput output)
			throws Exception {
		ConfigurableApplicationContext node = startNode();
		McpTestClient client = client(node);
		String session = client.initialize();
		assertThat(client.call(session, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode()).isEqualTo(200);
		ClusterHealthIndicator health = node.getBean(ClusterHealthIndicator.class);

		this.server.kill();
		await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.DOWN));
		assertUnavailable(timed(() -> client.call(session, "ping", null)));
		assertUnavailable(timed(() -> client.post(client.initializeBody("2025-11-25"))));
		List<Future<HttpResponse<String>>> concurrent = new ArrayList<>();
		for (int i = 0; i < CONCURRENT; i++) {
			concurrent
				.add(this.pool.submit(() -> client.call(session, "resources/subscribe", "{\"uri\":\"c://items/1\"}")));
		}
		for (Future<HttpResponse<String>> request : concurrent) {
			assertUnavailable(request.get(BOUND.toMillis() * 2, TimeUnit.MILLISECONDS));
		}
		assertStatelessRequestsAnswer(client);
		assertUnavailable(timed(() -> client.call(session, "ping", null)));
		assertThat(output.getOut()
			.lines()
			.filter((line) -> line.contains("WARN") && line.contains("McpEndpoint")
					&& line.contains("cannot be reached")))
			.hasSize(1);

		this.server.start();
		await().atMost(WAIT).until(() -> client.call(session, "ping", null).statusCode() == 200);
		await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.UP));
		assertThat(client.call(session, "resources/subscribe", "{\"uri\":\"c://items/2\"}").statusCode())
			.isEqualTo(200);
	}

	@Test
	void redisKilledForLongTheNodeNoticesItIsBackWithinFiveSeconds() throws Exception {
		ConfigurableApplicationContext node = startNode();
		ClusterHealthIndicator health = node.getBean(ClusterHealthIndicator.class);
		assertThat(node.getBean(ClientResources.class).reconnectDelay().createDelay(40)).as("the longest back-off")
			.isEqualTo(Duration.ofSeconds(5));

		this.server.kill();
		// Long enough for Lettuce's own back-off to reach 8 to 16 s between attempts.
		await().pollDelay(Duration.ofSeconds(20))
			.atMost(WAIT)
			.until(() -> health.health().getStatus().equals(Status.DOWN));
		this.server.start();

		await().atMost(Duration.ofSeconds(8)).until(() -> health.health().getStatus().equals(Status.UP));
	}

	@Test
	void redisKilledAListChangeStillReachesThisNodesListeners() throws Exception {
		ConfigurableApplicationContext node = startNode();
		try (SseStream listen = client(node).listen("{\"resourcesListChanged\":true}")) {
			assertThat(json(listen.nextMessage(WAIT).data()).get("method").stringValue())
				.isEqualTo("notifications/subscriptions/acknowledged");
			ClusterHealthIndicator health = node.getBean(ClusterHealthIndicator.class);

			this.server.kill();
			await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.DOWN));
			node.publishEvent(new ResourceListChangedEvent(this));

			assertThat(json(listen.nextMessage(WAIT).data()).get("method").stringValue())
				.isEqualTo("notifications/resources/list_changed");
		}
	}

	@Test
	void redisHangingRequestsThatNeedItAnswer503WithinTheCommandTimeout() throws Exception {
		// The application's own timeout is honoured (and leaves a slow start-up on a busy
		// machine some room).
		ConfigurableApplicationContext node = startNode("spring.data.redis.timeout=3s");
		McpTestClient client = client(node);
		String session = client.initialize();
		this.server.pause();
		try {
			assertUnavailable(timed(() -> client.call(session, "ping", null)));
			assertStatelessRequestsAnswer(client);
		}
		finally {
			this.server.resume();
		}
		await().atMost(WAIT).until(() -> client.call(session, "ping", null).statusCode() == 200);
	}

	private static void assertStatelessRequestsAnswer(McpTestClient client) throws Exception {
		HttpResponse<String> discover = timed(() -> client.stateless("server/discover", ""));
		assertThat(discover.statusCode()).as(discover.body()).isEqualTo(200);
		assertThat(json(discover.body()).has("result")).isTrue();
		HttpResponse<String> read = timed(() -> client.stateless("resources/read", "\"uri\":\"c://items/3\""));
		assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
		assertThat(json(read.body()).get("result").get("contents").get(0).get("text").stringValue()).isEqualTo("3");
	}

	private static void assertUnavailable(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
		assertThat(response.headers().firstValue("Retry-After")).isPresent();
		assertThat(json(response.body()).get("error").get("code").intValue()).isEqualTo(-32000);
	}

	/** A request answered within the bound; a request held longer fails the test. */
	private static HttpResponse<String> timed(Callable<HttpResponse<String>> request) throws Exception {
		long start = System.nanoTime();
		HttpResponse<String> response = request.call();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to answer").isLessThan(BOUND);
		return response;
	}

}
