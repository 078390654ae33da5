package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.github.mcpsubscriptions.session.SessionStore;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.cluster.ClusterNodes.publishInOrder;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The standing fault suite (#28): each fault of the matrix on real processes (private
 * redis-server processes, nodes in this JVM and in JVMs of their own), each a test of its
 * own, each held to the same contract: every change published inside the window arrives
 * or a resync says to re-read; nothing arrives twice; the nodes answer throughout; every
 * count is back to zero afterwards. {@code docs/cluster.md} publishes the matrix.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClusterFaultSuiteTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final Duration QUIET = Duration.ofMillis(1500);

	/** How long a stateless request may take on a node under a fault. */
	private static final Duration ANSWER = Duration.ofSeconds(2);

	/** How long a request that needs Redis may wait for its 503 while Redis is down. */
	private static final Duration FAIL_FAST = Duration.ofSeconds(3);

	private static final String ITEMS = "{\"uri\":\"c://items\"}";

	private static final String LISTEN = "{\"resourceSubscriptions\":[\"c://items\"]}";

	private final ClusterNodes nodes = new ClusterNodes(7);

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		Collections.reverse(this.resources);
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		this.nodes.close();
	}

	private <T extends AutoCloseable> T closing(T resource) {
		this.resources.add(resource);
		return resource;
	}

	@Test
	void killNineOfTheNodeHoldingAStream() throws Exception {
		RedisServerProcess redis = closing(new RedisServerProcess());
		ConfigurableApplicationContext a = node("a", redis);
		ConfigurableApplicationContext b = node("b", redis);
		ClusterNodeProcess x = closing(ClusterNodeProcess.startWithHeap("256m", arguments("x", redis)));
		String session = client(a).initialize();
		subscribe(client(b), session, ITEMS);
		Answering answering = closing(new Answering(client(a), client(b)));
		Deliveries deliveries = new Deliveries();
		Load load = closing(new Load(a));
		SseStream onX = x.client().openStream(session);
		deliveries.readUntil(onX, load.awaitCount(5), WAIT);

		x.kill();
		deliveries.read(onX, Duration.ofMillis(500));
		onX.close();
		try (SseStream onB = client(b).openStream(session, "Last-Event-ID", deliveries.lastId())) {
			load.awaitCount(load.count() + 20);
			List<String> published = load.stopAndMark(a);
			deliveries.readUntilOrResync(onB, Load.MARK, WAIT, QUIET);
			deliveries.assertNothingLostOrResynced(published);
		}
		answering.assertAnswered();
		endAndAssertCountsBackToZero(a, session);
	}

	@Test
	void aNodePausedPastTheTrimResyncsEverySubscriberItHolds() throws Exception {
		RedisServerProcess redis = closing(new RedisServerProcess());
		ConfigurableApplicationContext a = node("a", redis, "mcp.cluster.log-size=50");
		ClusterNodeProcess x = closing(ClusterNodeProcess.startWithHeap("256m",
				arguments("x", redis, "mcp.cluster.log-size=50", "mcp.cluster.poll-timeout=200ms")));
		String session = client(a).initialize();
		subscribe(client(a), session, ITEMS);
		Answering answering = closing(new Answering(client(a)));
		Deliveries era2025 = new Deliveries();
		Deliveries era2026 = new Deliveries();
		try (SseStream stream = x.client().openStream(session); SseStream listen = x.client().listen(LISTEN)) {
			List<String> published = new ArrayList<>();
			publishInOrder(a, "c://items/0");
			published.add("c://items/0");
			era2025.readUntil(stream, "c://items/0", WAIT);
			era2026.readUntil(listen, "c://items/0", WAIT);

			x.pause();
			for (int i = 1; i <= 62; i++) {
				publishInOrder(a, "c://items/" + i);
				published.add("c://items/" + i);
			}
			x.resume();
			publishInOrder(a, Load.MARK);
			published.add(Load.MARK);
			try {
				// The resync stands for every later change of its subscription until the
				// client re-reads: the mark arrives after it, or in it if the resync
				// still
				// waited when the mark was published.
				era2025.readUntilOrResync(stream, Load.MARK, WAIT, QUIET).assertNothingLostOrResynced(published);
				era2026.readUntilOrResync(listen, Load.MARK, WAIT, QUIET).assertNothingLostOrResynced(published);
				assertThat(era2025.resyncs()).as("resyncs on the GET stream").isPositive();
				assertThat(era2026.resyncs()).as("resyncs on the listen stream").isPositive();
			}
			catch (AssertionError ex) {
				throw new AssertionError(ex.getMessage() + "\nThe paused node's log:\n" + x.output(), ex);
			}
		}
		answering.assertAnswered();
		endAndAssertCountsBackToZero(a, session);
	}

	@Test
	void redisDownTenSecondsUnderLoad() throws Exception {
		RedisServerProcess redis = closing(new RedisServerProcess());
		try (Scene scene = new Scene(node("a", redis), node("b", redis))) {
			redis.kill();
			// Throughout the outage a request that needs Redis is refused at once.
			await().during(Duration.ofSeconds(10))
				.atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofSeconds(1))
				.until(() -> refusedFast(client(scene.a), scene.session)
						&& refusedFast(client(scene.b), scene.session));
			redis.start();
			awaitUp(scene.a, scene.b);
			scene.afterTheFault();
		}
	}

	@Test
	void redisRestartedEmptyEndsStreamsOfLostSessionsAndResyncsTheOthers() throws Exception {
		RedisServerProcess redis = closing(new RedisServerProcess());
		ConfigurableApplicationContext a = node("a", redis, "mcp.cluster.poll-timeout=200ms");
		ConfigurableApplicationContext b = node("b", redis, "mcp.cluster.poll-timeout=200ms");
		String session = client(a).initialize();
		subscribe(client(a), session, ITEMS);
		Answering answering = closing(new Answering(client(a), client(b)));
		Deliveries era2026 = new Deliveries();
		try (SseStream stream = client(b).openStream(session); SseStream listen = client(a).listen(LISTEN)) {
			publishInOrder(a, "c://items/0");
			new Deliveries().readUntil(stream, "c://items/0", WAIT);
			era2026.readUntil(listen, "c://items/0", WAIT);

			redis.restartEmpty();
			await().atMost(WAIT).until(() -> client(a).call(session, "ping", null).statusCode() == 404);
			assertThat(client(b).call(session, "ping", null).statusCode()).as("the session is gone on every node")
				.isEqualTo(404);
			assertThat(stream.awaitEnd(WAIT)).as("the stream of a session lost with Redis's data ends").isTrue();
			publishInOrder(b, Load.MARK);
			era2026.readUntilOrResync(listen, Load.MARK, WAIT, QUIET);
			assertThat(era2026.resyncs()).as("a restart of Redis is treated like an outage: the listener re-reads")
				.isPositive();
			era2026.assertNothingTwice();
		}
		answering.assertAnswered();
		assertCountsBackToZero(a);
	}

	@Test
	void aSlowRedisDelaysButLosesNothing() throws Exception {
		RedisServerProcess redis = closing(new RedisServerProcess());
		try (Scene scene = new Scene(node("a", redis), node("b", redis))) {
			ClusterStats stats = scene.a.getBean(ClusterStats.class);
			redis.cli("CLIENT", "PAUSE", "3000", "ALL");
			long atPause = stats.getPublished();
			// The publisher waits out the pause, then catches up.
			await().atMost(WAIT).until(() -> stats.getPublished() > atPause + 60);
			scene.afterTheFault();
		}
	}

	@Test
	void sentinelFailoverUnderLoad() throws Exception {
		RedisTopology.Sentinel sentinel = closing(new RedisTopology.Sentinel());
		try (Scene scene = new Scene(this.nodes.start("a", sentinel), this.nodes.start("b", sentinel))) {
			sentinel.failOver();
			awaitUp(scene.a, scene.b);
			scene.afterTheFault();
		}
	}

	@Test
	void oneClientReplaysTheWholeWindowInBoundedMemory() throws Exception {
		int changes = 4000;
		RedisServerProcess redis = closing(new RedisServerProcess());
		ConfigurableApplicationContext a = node("a", redis);
		// A small heap: a replay that held the whole window in memory would fell this
		// node.
		ClusterNodeProcess x = closing(ClusterNodeProcess.startWithHeap("128m", arguments("x", redis)));
		McpTestClient onX = x.client();
		String session = onX.initialize();
		for (int i = 0; i < 100; i++) {
			// 100 overlapping subscriptions, each covering every item.
			subscribe(onX, session, "{\"uri\":\"c://items?pattern=*&k=" + i + "\"}");
		}
		String from;
		try (SseStream stream = onX.openStream(session)) {
			publishInOrder(a, "c://items/0");
			from = new Deliveries().readUntil(stream, "c://items/0", WAIT).lastId();
		}
		ClusterStats stats = a.getBean(ClusterStats.class);
		long before = stats.getPublished();
		List<String> published = new ArrayList<>();
		for (int i = 1; i <= changes; i++) {
			ClusterNodes.publish(a, "c://items/" + i);
			published.add("c://items/" + i);
		}
		await().atMost(WAIT).until(() -> stats.getPublished() >= before + changes);

		Answering answering = closing(new Answering(client(a), onX));
		Deliveries replayed = new Deliveries();
		try (SseStream replay = onX.openStream(session, "Last-Event-ID", from)) {
			assertThat(replay.response().statusCode()).isEqualTo(200);
			publishInOrder(a, Load.MARK);
			published.add(Load.MARK);
			replayed.readUntilOrResync(replay, Load.MARK, Duration.ofSeconds(60), QUIET);
		}
		assertThat(x.isAlive()).as("the node survived the replay").isTrue();
		replayed.assertNothingLostOrResynced(published);
		answering.assertAnswered();
		endAndAssertCountsBackToZero(a, session);
	}

	private static void awaitUp(ConfigurableApplicationContext... nodes) {
		for (ConfigurableApplicationContext node : nodes) {
			ClusterHealthIndicator health = node.getBean(ClusterHealthIndicator.class);
			await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.UP));
		}
	}

	private ConfigurableApplicationContext node(String name, RedisServerProcess redis, String... properties) {
		return this.nodes.run(arguments(name, redis, properties));
	}

	private String[] arguments(String name, RedisServerProcess redis, String... properties) {
		List<String> extra = new ArrayList<>(List.of(properties));
		extra.add("mcp.cluster.node-name=" + name);
		return this.nodes.redis().nodeArguments("127.0.0.1", redis.port(), extra.toArray(String[]::new));
	}

	private static void subscribe(McpTestClient client, String session, String params) throws Exception {
		HttpResponse<String> response = client.call(session, "resources/subscribe", params);
		assertThat(json(response.body()).has("result")).as(response.body()).isTrue();
	}

	/** A request that needs Redis gets 503 and Retry-After, and at once. */
	private static boolean refusedFast(McpTestClient client, String session) throws Exception {
		long start = System.nanoTime();
		HttpResponse<String> response = client
			.send(client.postRequest("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "Mcp-Session-Id", session)
				.timeout(FAIL_FAST.plusSeconds(2))
				.build());
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Retry-After")).isPresent();
		assertThat(took).as("the 503 comes within " + FAIL_FAST).isLessThan(FAIL_FAST);
		return true;
	}

	private void endAndAssertCountsBackToZero(ConfigurableApplicationContext node, String session) {
		await().atMost(WAIT).until(() -> client(node).delete(session).statusCode() == 204);
		assertCountsBackToZero(node);
	}

	private void assertCountsBackToZero(ConfigurableApplicationContext node) {
		SessionStore store = node.getBean(SessionStore.class);
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(store.count()).as("sessions").isZero();
			assertThat(store.countSubscriptions()).as("subscriptions").isZero();
		});
		assertThat(this.nodes.redis().keys()).isEmpty();
	}

	/**
	 * Two nodes under a steady flow of changes published on A: a session made on A and
	 * subscribed on B, its stream on B, a listen stream on A, both receiving already.
	 * Closing it checks the contract: the nodes answered, the session ends, every count
	 * is back to zero.
	 */
	private final class Scene implements AutoCloseable {

		final ConfigurableApplicationContext a;

		final ConfigurableApplicationContext b;

		final String session;

		private final Answering answering;

		private final SseStream stream;

		private final SseStream listen;

		private final Deliveries era2025 = new Deliveries();

		private final Deliveries era2026 = new Deliveries();

		private final Load load;

		Scene(ConfigurableApplicationContext a, ConfigurableApplicationContext b) throws Exception {
			this.a = a;
			this.b = b;
			this.session = client(a).initialize();
			subscribe(client(b), this.session, ITEMS);
			this.answering = closing(new Answering(client(a), client(b)));
			this.stream = closing(client(b).openStream(this.session));
			this.listen = closing(client(a).listen(LISTEN));
			this.load = closing(new Load(a));
			this.era2025.readUntil(this.stream, this.load.awaitCount(5), WAIT);
		}

		/**
		 * Some more changes after the fault, then a mark: both streams get everything up
		 * to the mark, or a resync, and nothing twice.
		 */
		void afterTheFault() throws InterruptedException {
			this.load.awaitCount(this.load.count() + 20);
			List<String> published = this.load.stopAndMark(this.a);
			// A resync still waiting when the mark is published takes the mark in.
			this.era2025.readUntilOrResync(this.stream, Load.MARK, WAIT, QUIET).assertNothingLostOrResynced(published);
			this.era2026.readUntilOrResync(this.listen, Load.MARK, WAIT, QUIET).assertNothingLostOrResynced(published);
		}

		@Override
		public void close() throws InterruptedException {
			this.answering.assertAnswered();
			endAndAssertCountsBackToZero(this.a, this.session);
		}

	}

	/**
	 * Changes {@code c://items/1, 2, …} published on one node, 20 a second, until
	 * stopped.
	 */
	static final class Load implements AutoCloseable {

		static final String MARK = "c://items/mark";

		private final List<String> published = new CopyOnWriteArrayList<>();

		private final AtomicLong count = new AtomicLong();

		private final Thread thread;

		private volatile boolean running = true;

		Load(ConfigurableApplicationContext node) {
			this.thread = new Thread(() -> {
				long next = System.nanoTime();
				while (this.running) {
					String uri = "c://items/" + (this.count.get() + 1);
					ClusterNodes.publish(node, uri);
					this.published.add(uri);
					this.count.incrementAndGet();
					next += TimeUnit.MILLISECONDS.toNanos(50);
					LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
				}
			}, "fault-load");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		long count() {
			return this.count.get();
		}

		/**
		 * Wait until at least this many changes were published; the URI of that change.
		 */
		String awaitCount(long changes) {
			await().atMost(WAIT).until(() -> this.count.get() >= changes);
			return "c://items/" + changes;
		}

		/**
		 * Stop, then publish a mark after the last change and wait until it is in the
		 * log.
		 */
		List<String> stopAndMark(ConfigurableApplicationContext node) throws InterruptedException {
			close();
			publishInOrder(node, MARK);
			List<String> all = new ArrayList<>(this.published);
			all.add(MARK);
			return all;
		}

		@Override
		public void close() throws InterruptedException {
			this.running = false;
			this.thread.join(5000);
		}

	}

	/**
	 * Stateless requests to each node every 250 ms: each must answer 200 within
	 * {@link #ANSWER}.
	 */
	static final class Answering implements AutoCloseable {

		private final List<String> failures = new CopyOnWriteArrayList<>();

		private final AtomicLong probes = new AtomicLong();

		private final Thread thread;

		private volatile boolean running = true;

		Answering(McpTestClient... clients) {
			this.thread = new Thread(() -> {
				while (this.running) {
					for (McpTestClient client : clients) {
						long start = System.nanoTime();
						try {
							HttpResponse<String> response = client.send(client.statelessRequest("server/discover", "")
								.timeout(ANSWER.plusSeconds(3))
								.build());
							Duration took = Duration.ofNanos(System.nanoTime() - start);
							if (response.statusCode() != 200 || took.compareTo(ANSWER) > 0) {
								this.failures.add(client.endpoint() + ": " + response.statusCode() + " after " + took);
							}
						}
						catch (Exception ex) {
							if (this.running) {
								this.failures.add(client.endpoint() + ": " + ex);
							}
						}
						this.probes.incrementAndGet();
					}
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
				}
			}, "fault-answering");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		void assertAnswered() throws InterruptedException {
			close();
			assertThat(this.probes.get()).as("probes").isPositive();
			assertThat(this.failures).as("the nodes answered stateless requests throughout").isEmpty();
		}

		@Override
		public void close() throws InterruptedException {
			this.running = false;
			this.thread.join(10_000);
		}

	}

}
