package io.github.mcpsubscriptions.benchmarks.load;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The multi-process cluster harness: starts sample-app processes (the built jar) on free
 * loopback ports, spreads every request of every 2025-era client round-robin over them
 * ({@code initialize} on one node, {@code notifications/initialized} and
 * {@code resources/subscribe} on the next ones, the GET stream on the next; no
 * stickiness), publishes product changes ({@code PUT /api/products/1..5}) round-robin
 * over the nodes, and counts per client what arrived: delivered/s, publish-to-receive
 * latency, notifications lost and duplicated, Redis commands per change. In failover mode
 * it kills ({@code kill -9}) the node holding the most streams mid-run and reconnects its
 * clients to another node with their {@code Last-Event-ID}. The same run first measures
 * one node in memory and one node in cluster mode with the same load, for their ratio.
 * Loopback only, bounded (the whole run is stopped after 300 s), it stops every process
 * it started. Run with {@code --help}.
 */
public final class ClusterHarness {

	static final int MAX_RUN_SECONDS = 300;

	/** The sample's products: each exists on every node (data.sql). */
	static final int PRODUCTS = 5;

	private static final String SUBSCRIBE_URI = "catalog://products/{id}";

	private static final String HELP = """
			Usage: benchmarks/cluster.sh [options]
			   or: java -cp benchmarks/target/benchmarks.jar io.github.mcpsubscriptions.benchmarks.load.ClusterHarness [options]

			Runs up to three phases with the same load, each on freshly started sample-app processes:
			  1. in-memory, 1 node (no profile)   2. cluster, 1 node   3. cluster, N nodes (+ failover)
			and reports each (a table on standard error, one JSON line on standard output) and the
			ratio of phase 2 to phase 1. Exit status 1 when a cluster phase lost or duplicated a
			notification or a client could not be set up.

			  --jar PATH              the sample application's jar (default sample-app/target/sample-app-*.jar)
			  --nodes N               nodes of phase 3, 2..5 (default 3)
			  --subscribers S         2025-era clients, each subscribed to catalog://products/{id}, 1..2000 (default 60)
			  --rate R                product changes per second, spread over the nodes, 1..500 (default 20)
			  --duration D            seconds of changes per phase, 5..60 (default 15)
			  --failover on|off       phase 3 kills (kill -9) the node holding the most streams after a
			                          third of --duration; its clients reconnect elsewhere with
			                          Last-Event-ID (default on)
			  --spread round-robin|sticky
			                          round-robin (default): every request of a client on the next node.
			                          sticky: all of a client's requests on one node (clients spread over
			                          nodes), for a library that shares changes but not sessions
			  --phases all|cluster    all (default): phases 1 to 3. cluster: phase 3 only
			  --publish-on all|one    all (default): changes spread over the nodes. one: every change on
			                          node-0 and, with more than one node, no stream on node-0, so every
			                          notification crossed Redis (cross-node latency)
			  --redis-port P          Redis on 127.0.0.1 (default 6379)
			  --private-redis on|off  on: start a redis-server of the harness's own on a free port
			                          (stopped at the end), so that INFO commandstats counts the nodes
			                          alone; --redis-port is then ignored (default off)
			  --redis-database D      the Redis database the nodes share, 8..11 (default 8); the harness
			                          empties it (FLUSHDB) before and after every cluster phase
			  --help                  this text

			Redis commands per change come from INFO commandstats, which counts the whole server:
			the rate of commands while the nodes idle before the changes (their own blocking reads and
			anything else using this Redis) is measured first and reported, and subtracted in
			"commandsPerChangeNet".""";

	private ClusterHarness() {
	}

	/** The run's settings. */
	record Options(Path jar, int nodes, int subscribers, int rate, int durationSeconds, boolean failover,
			boolean sticky, boolean allPhases, int redisPort, int database, boolean publishOnOne,
			boolean privateRedis) {

		Options withRedisPort(int port) {
			return new Options(this.jar, this.nodes, this.subscribers, this.rate, this.durationSeconds, this.failover,
					this.sticky, this.allPhases, port, this.database, this.publishOnOne, this.privateRedis);
		}

	}

	/** What one phase measured. */
	record Phase(String label, Map<String, Object> json, boolean failed) {
	}

	private static final List<Node> STARTED = new CopyOnWriteArrayList<>();

	/**
	 * The harness's own redis-server, if any: stopped on every way out, the watchdog's
	 * too.
	 */
	private static volatile Process privateRedis;

	public static void main(String[] args) throws Exception {
		Options options;
		try {
			options = parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println("cluster-harness: " + ex.getMessage());
			System.err.println("Run with --help for the options.");
			System.exit(2);
			return;
		}
		if (options == null) {
			System.out.println(HELP);
			return;
		}
		Thread watchdog = new Thread(() -> {
			try {
				Thread.sleep(MAX_RUN_SECONDS * 1000L);
			}
			catch (InterruptedException ex) {
				return;
			}
			LoadHarness.log("the run took more than " + MAX_RUN_SECONDS + " s: stopping every node and exiting");
			STARTED.forEach(Node::kill);
			stopPrivateRedis();
			Runtime.getRuntime().halt(3);
		}, "cluster-harness-watchdog");
		watchdog.setDaemon(true);
		watchdog.start();
		Runtime.getRuntime().addShutdownHook(new Thread(() -> STARTED.forEach(Node::kill)));
		Path work = Files.createTempDirectory("mcp-cluster-harness-");
		LoadHarness.log("node logs in " + work);
		int status = 0;
		if (options.privateRedis()) {
			int port = Node.freePort();
			privateRedis = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
					"--save", "", "--appendonly", "no", "--dir", work.toString())
				.redirectErrorStream(true)
				.redirectOutput(work.resolve("redis.log").toFile())
				.start();
			Runtime.getRuntime().addShutdownHook(new Thread(ClusterHarness::stopPrivateRedis));
			options = options.withRedisPort(port);
			LoadHarness.log("redis-server of its own on port " + port + " (pid " + privateRedis.pid() + ")");
			awaitRedis(port);
		}
		try (RedisProbe redis = new RedisProbe("127.0.0.1", options.redisPort(), options.database())) {
			Phase memory = null;
			Phase single = null;
			if (options.allPhases()) {
				memory = runPhase(options, "in-memory, 1 node", 1, false, false, redis, work);
				single = runPhase(options, "cluster, 1 node", 1, true, false, redis, work);
			}
			Phase cluster = runPhase(options,
					"cluster, " + options.nodes() + " nodes" + (options.failover() ? ", failover" : ""),
					options.nodes(), true, options.failover(), redis, work);
			status |= (cluster.failed() || (single != null && single.failed())) ? 1 : 0;
			if (memory != null) {
				Map<String, Object> ratio = new LinkedHashMap<>();
				ratio.put("harness", "mcp-subscriptions-cluster-ratio");
				ratio.put("deliveredPerSecond",
						ratio(single.json().get("deliveredPerSecond"), memory.json().get("deliveredPerSecond")));
				ratio.put("latencyP50", ratio(latency(single, "p50"), latency(memory, "p50")));
				ratio.put("latencyP99", ratio(latency(single, "p99"), latency(memory, "p99")));
				ratio.put("note", "cluster mode on one node / in-memory mode on one node, same load, same run");
				LoadHarness.printTable("cluster, 1 node / in-memory, 1 node", ratio);
				System.out.println(LoadHarness.toJson(ratio));
			}
		}
		finally {
			STARTED.forEach(Node::kill);
			stopPrivateRedis();
			watchdog.interrupt();
		}
		System.exit(status);
	}

	private static void stopPrivateRedis() {
		Process redis = privateRedis;
		if (redis != null) {
			redis.destroyForcibly();
		}
	}

	private static void awaitRedis(int port) throws InterruptedException {
		long deadline = System.nanoTime() + 10_000_000_000L;
		while (System.nanoTime() < deadline) {
			try (RedisProbe probe = new RedisProbe("127.0.0.1", port, 0)) {
				return;
			}
			catch (IOException ex) {
				Thread.sleep(100);
			}
		}
		throw new IllegalStateException("redis-server on port " + port + " did not answer within 10 s");
	}

	static Options parse(String[] args) {
		Map<String, String> values = LoadHarness.optionValues(args);
		if (values == null) {
			return null;
		}
		Path jar = values.containsKey("jar") ? Path.of(values.remove("jar")) : defaultJar();
		if (!Files.isRegularFile(jar)) {
			throw new IllegalArgumentException("no jar at " + jar
					+ ": build it with ./mvnw -q -DskipTests package -pl sample-app -am, or pass --jar");
		}
		int nodes = LoadHarness.intOption(values, "nodes", 3, 2, 5);
		int subscribers = LoadHarness.intOption(values, "subscribers", 60, 1, 2000);
		int rate = LoadHarness.intOption(values, "rate", 20, 1, 500);
		int duration = LoadHarness.intOption(values, "duration", 15, 5, 60);
		boolean failover = onOff(values, "failover", true);
		String spread = values.getOrDefault("spread", "round-robin");
		values.remove("spread");
		if (!spread.equals("round-robin") && !spread.equals("sticky")) {
			throw new IllegalArgumentException("--spread must be round-robin or sticky");
		}
		String phases = values.getOrDefault("phases", "all");
		values.remove("phases");
		if (!phases.equals("all") && !phases.equals("cluster")) {
			throw new IllegalArgumentException("--phases must be all or cluster");
		}
		String publishOn = values.getOrDefault("publish-on", "all");
		values.remove("publish-on");
		if (!publishOn.equals("all") && !publishOn.equals("one")) {
			throw new IllegalArgumentException("--publish-on must be all or one");
		}
		boolean privateRedis = onOff(values, "private-redis", false);
		int redisPort = LoadHarness.intOption(values, "redis-port", 6379, 1, 65535);
		int database = LoadHarness.intOption(values, "redis-database", 8, 8, 11);
		if (!values.isEmpty()) {
			throw new IllegalArgumentException("unknown option(s): --" + String.join(", --", values.keySet()));
		}
		return new Options(jar, nodes, subscribers, rate, duration, failover, spread.equals("sticky"),
				phases.equals("all"), redisPort, database, publishOn.equals("one"), privateRedis);
	}

	private static boolean onOff(Map<String, String> values, String name, boolean fallback) {
		String value = values.remove(name);
		if (value == null) {
			return fallback;
		}
		if (!value.equals("on") && !value.equals("off")) {
			throw new IllegalArgumentException("--" + name + " must be on or off");
		}
		return value.equals("on");
	}

	private static Path defaultJar() {
		Path target = Path.of("sample-app", "target");
		if (Files.isDirectory(target)) {
			try (Stream<Path> files = Files.list(target)) {
				return files.filter((file) -> file.getFileName().toString().matches("sample-app-.*\\.jar"))
					.findFirst()
					.orElse(target.resolve("sample-app.jar"));
			}
			catch (IOException ex) {
				// Reported as a missing jar.
			}
		}
		return target.resolve("sample-app.jar");
	}

	static Phase runPhase(Options options, String label, int nodeCount, boolean cluster, boolean failover,
			RedisProbe redis, Path work) throws Exception {
		LoadHarness.log("=== " + label + ": " + options.subscribers() + " subscribers, " + options.rate()
				+ " changes/s, " + options.durationSeconds() + " s");
		if (cluster) {
			redis.flushDatabase();
		}
		List<Node> nodes = new ArrayList<>();
		ExecutorService clientExecutor = Executors.newFixedThreadPool(2, LoadHarness.daemon("cluster-http"));
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10))
			.executor(clientExecutor)
			.build();
		ExecutorService setup = Executors.newFixedThreadPool(8, LoadHarness.daemon("cluster-setup"));
		List<SseSubscriber> subscribers = new ArrayList<>();
		try {
			for (int i = 0; i < nodeCount; i++) {
				nodes.add(Node.start(options, work, label.startsWith("in-memory") ? "memory-" + i : "node-" + i,
						cluster));
			}
			for (Node node : nodes) {
				node.awaitReady(http);
			}
			LoadHarness.log("nodes ready: " + nodes);

			long events = (long) options.rate() * options.durationSeconds();
			LatencyStats stats = new LatencyStats();
			// Indexed by change number (1..events); the change of number c is a PUT of
			// product
			// (c - 1) % 5 + 1 whose new name, "change-c", comes back in the notification.
			long[] publishedAt = new long[(int) events + 1];
			AtomicLong streamErrors = new AtomicLong();
			AtomicLong streamsEnded = new AtomicLong();
			SseSubscriber.Context context = new SseSubscriber.Context(http, nodes.get(0).mcp, stats, publishedAt,
					streamErrors, streamsEnded);
			AtomicLong reconnects = new AtomicLong();
			AtomicLong reconnectFailures = new AtomicLong();

			// Set up: every request of client i goes to the next node (or all to node i %
			// N).
			List<CompletableFuture<Void>> readies = new ArrayList<>();
			// With --publish-on one, the stream (request 3: initialize, initialized,
			// subscribe,
			// GET) goes to a node other than node-0, where every change is made.
			boolean elsewhere = options.publishOnOne() && nodes.size() > 1;
			for (int i = 0; i < options.subscribers(); i++) {
				int first = i % nodes.size();
				int streamNode = 1 + i % Math.max(1, nodes.size() - 1);
				SseSubscriber subscriber = new SseSubscriber(context, i,
						(k) -> (elsewhere && k == 3) ? nodes.get(streamNode).mcp
								: nodes.get(options.sticky() ? first : (first + k) % nodes.size()).mcp,
						PRODUCTS + 1);
				subscriber.onStreamLost((lost) -> reconnect(lost, nodes, reconnects, reconnectFailures));
				subscribers.add(subscriber);
				readies.add(CompletableFuture.runAsync(() -> {
					try {
						subscriber.open2025(List.of(SUBSCRIBE_URI), true);
						subscriber.ready().get(60, TimeUnit.SECONDS);
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}, setup));
			}
			AtomicInteger setupErrors = new AtomicInteger();
			for (CompletableFuture<Void> ready : readies) {
				try {
					ready.get(120, TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					if (setupErrors.incrementAndGet() <= 3) {
						LoadHarness.log("client set-up failed: " + LoadHarness.rootMessage(ex));
					}
				}
			}
			List<SseSubscriber> ready = new ArrayList<>();
			for (int i = 0; i < subscribers.size(); i++) {
				if (!readies.get(i).isCompletedExceptionally()) {
					ready.add(subscribers.get(i));
				}
			}
			LoadHarness.log(ready.size() + " of " + options.subscribers() + " clients ready; streams per node: "
					+ streamsPerNode(nodes, ready));

			// Redis work while idle (the nodes' blocking reads and anyone else on this
			// Redis).
			Map<String, Long> idleBefore = redis.commandCalls();
			long idleStart = System.nanoTime();
			Thread.sleep(3000);
			Map<String, Long> before = redis.commandCalls();
			double idleSeconds = (System.nanoTime() - idleStart) / 1e9;

			AtomicLongArray published = new AtomicLongArray((int) events + 1);
			AtomicInteger nextTarget = new AtomicInteger();
			ChangeTrigger.Http trigger = new ChangeTrigger.Http(http, (change) -> {
				Node node = nextLive(nodes, options.publishOnOne() ? 0 : nextTarget.getAndIncrement(), true);
				node.inFlight.incrementAndGet();
				return node.base.resolve("/api/products/" + product(change));
			}, "PUT", "{\"name\":\"change-{n}\",\"price\":1}", (change, target, succeeded) -> {
				nodes.stream()
					.filter((node) -> target.getPort() == node.port)
					.forEach((node) -> node.inFlight.decrementAndGet());
				if (succeeded) {
					published.set((int) change, 1);
				}
			});
			long killAt = failover ? events / 3 : -1;
			CompletableFuture<Map<String, Object>> killed = null;
			long interval = 1_000_000_000L / options.rate();
			long firstPublish = System.nanoTime();
			for (long k = 0; k < events; k++) {
				if (k == killAt) {
					killed = CompletableFuture.supplyAsync(() -> killBusiestNode(nodes, ready));
				}
				long due = firstPublish + k * interval;
				long wait;
				while ((wait = due - System.nanoTime()) > 0) {
					LockSupport.parkNanos(wait);
				}
				publishedAt[(int) k + 1] = System.nanoTime();
				trigger.fire(k + 1);
			}
			long publishEnd = System.nanoTime();
			trigger.close();
			Map<String, Object> kill = (killed != null) ? killed.get(60, TimeUnit.SECONDS) : null;
			long totalPublished = 0;
			for (int change = 1; change <= events; change++) {
				totalPublished += published.get(change);
			}
			long expected = totalPublished * ready.size();
			drain(stats, expected);
			Map<String, Long> after = redis.commandCalls();
			double runSeconds = (System.nanoTime() - firstPublish) / 1e9;

			// Per client and product, in change order. Coalescing may merge changes still
			// waiting into the newest one (whose name the notification carries), never
			// drop the
			// last: a published change is lost when no notification of its product named
			// it or
			// a later change. An event id or a change seen twice is a duplicate. Changes
			// of one
			// product sent to different nodes within a few milliseconds may be published
			// in
			// another order than they were sent: counted apart, not as a failure.
			long lost = 0;
			long merged = 0;
			long repeatedIds = 0;
			long repeatedChanges = 0;
			long outOfOrder = 0;
			long resyncs = 0;
			for (SseSubscriber subscriber : ready) {
				repeatedIds += subscriber.repeatedEventIds();
				repeatedChanges += subscriber.repeatedChanges();
				outOfOrder += subscriber.outOfOrder();
				resyncs += subscriber.resyncs();
				for (int n = 1; n <= PRODUCTS; n++) {
					long covered = 0;
					for (int change = n; change <= events; change += PRODUCTS) {
						if (published.get(change) == 1) {
							if (change > subscriber.lastChange(n)) {
								lost++;
							}
							else {
								covered++;
							}
						}
					}
					merged += Math.max(0, covered - subscriber.received(n));
				}
			}
			long delivered = stats.count();
			long end = Math.max(stats.lastReceiveNanos(), publishEnd);
			double seconds = Math.max(1e-9, (end - firstPublish) / 1e9);

			Map<String, Object> json = new LinkedHashMap<>();
			json.put("harness", "mcp-subscriptions-cluster");
			json.put("phase", label);
			json.put("nodes", nodeCount);
			json.put("mode", cluster ? "cluster" : "in-memory");
			json.put("spread", options.sticky() ? "sticky" : "round-robin");
			json.put("publishedOn", options.publishOnOne() ? "node-0 only" : "every node");
			json.put("subscribers", options.subscribers());
			json.put("subscribersReady", ready.size());
			json.put("rate", options.rate());
			json.put("durationSeconds", options.durationSeconds());
			json.put("changesPublished", totalPublished);
			json.put("changeErrors", trigger.errors());
			json.put("notificationsExpected", expected);
			json.put("notificationsDelivered", delivered);
			json.put("deliveredPerSecond", LoadHarness.round(delivered / seconds));
			Map<String, Object> latency = new LinkedHashMap<>();
			latency.put("p50", LoadHarness.round(stats.percentileMillis(50)));
			latency.put("p99", LoadHarness.round(stats.percentileMillis(99)));
			latency.put("max", LoadHarness.round(stats.maxMillis()));
			json.put("latencyMs", latency);
			json.put("lost", lost);
			long duplicated = repeatedIds + repeatedChanges;
			json.put("duplicated", duplicated);
			json.put("duplicatedBy", Map.of("repeatedEventId", repeatedIds, "repeatedChange", repeatedChanges));
			json.put("arrivedAfterALaterChange", outOfOrder);
			json.put("mergedByCoalescing", merged);
			json.put("coalescedOnLiveNodes", coalesced(http, nodes));
			json.put("resyncs", resyncs);
			json.put("unmatched", stats.unmatchedCount());
			json.put("streamErrors", streamErrors.get());
			json.put("streamsEndedByServer", streamsEnded.get());
			json.put("reconnects", reconnects.get());
			json.put("reconnectFailures", reconnectFailures.get());
			if (kill != null) {
				ready.stream()
					.map(SseSubscriber::resumeTrace)
					.filter((trace) -> !trace.isEmpty())
					.findFirst()
					.ifPresent((trace) -> kill.put("firstResumedClient", trace));
			}
			json.put("failover", kill);
			if (cluster) {
				json.put("redis", redisWork(idleBefore, before, after, idleSeconds, runSeconds, totalPublished));
			}
			json.put("cores", Runtime.getRuntime().availableProcessors());
			json.put("javaVersion", System.getProperty("java.version"));
			LoadHarness.printTable(label, json);
			System.out.println(LoadHarness.toJson(json));
			System.out.flush();
			boolean failed = ready.size() < options.subscribers() || (cluster && (lost > 0 || duplicated > 0));
			return new Phase(label, json, failed);
		}
		finally {
			subscribers.forEach(SseSubscriber::close);
			setup.shutdownNow();
			for (Node node : nodes) {
				node.stop();
			}
			if (cluster) {
				LoadHarness.log("keys left in database " + options.database() + " after the nodes stopped: "
						+ redis.databaseSize());
				redis.flushDatabase();
			}
			clientExecutor.shutdownNow();
		}
	}

	/**
	 * Wait for the tail: until everything arrived, nothing arrives for 5 s, or 30 s pass.
	 */
	private static void drain(LatencyStats stats, long expected) throws InterruptedException {
		LoadHarness.awaitDrain(stats, expected, Duration.ofSeconds(5), Duration.ofSeconds(30));
	}

	/** The product a change number changes. */
	static int product(long change) {
		return (int) ((change - 1) % PRODUCTS) + 1;
	}

	private static Map<String, Integer> streamsPerNode(List<Node> nodes, List<SseSubscriber> subscribers) {
		Map<String, Integer> counts = new LinkedHashMap<>();
		for (Node node : nodes) {
			counts.put(node.name,
					(int) subscribers.stream().filter((s) -> node.mcp.equals(s.streamEndpoint())).count());
		}
		return counts;
	}

	/**
	 * The next node (from a counter) that is alive; for changes, also still taking them.
	 */
	private static Node nextLive(List<Node> nodes, int counter, boolean forChanges) {
		for (int i = 0; i < nodes.size(); i++) {
			Node node = nodes.get(Math.floorMod(counter + i, nodes.size()));
			if (node.alive && (!forChanges || node.takesChanges)) {
				return node;
			}
		}
		throw new IllegalStateException("no node left alive");
	}

	/**
	 * Kill -9 the node holding the most streams. It first leaves the rotation of changes
	 * and finishes the calls it has in flight, so that every change counted as published
	 * was answered (a change whose answer died with the node would be neither lost nor
	 * published).
	 */
	private static Map<String, Object> killBusiestNode(List<Node> nodes, List<SseSubscriber> subscribers) {
		Map<String, Integer> streams = streamsPerNode(nodes, subscribers);
		Node victim = nodes.stream().max(Comparator.comparingInt((Node node) -> streams.get(node.name))).orElseThrow();
		victim.takesChanges = false;
		long deadline = System.nanoTime() + 10_000_000_000L;
		while (victim.inFlight.get() > 0 && System.nanoTime() < deadline) {
			LockSupport.parkNanos(1_000_000);
		}
		Map<String, Object> kill = new LinkedHashMap<>();
		kill.put("node", victim.name);
		kill.put("pid", victim.process.pid());
		kill.put("streamsHeld", streams.get(victim.name));
		victim.alive = false;
		victim.kill();
		LoadHarness.log(
				"kill -9 " + victim.process.pid() + " (" + victim.name + ", " + streams.get(victim.name) + " streams)");
		return kill;
	}

	/** Reopen a lost stream on the next live node, with Last-Event-ID. */
	private static void reconnect(SseSubscriber subscriber, List<Node> nodes, AtomicLong reconnects,
			AtomicLong failures) {
		URI from = subscriber.streamEndpoint();
		int index = 0;
		for (int i = 0; i < nodes.size(); i++) {
			if (nodes.get(i).mcp.equals(from)) {
				index = i;
			}
		}
		Node target;
		try {
			target = nextLive(nodes, index + 1, false);
		}
		catch (IllegalStateException ex) {
			failures.incrementAndGet();
			return;
		}
		reconnects.incrementAndGet();
		subscriber.openStream2025(target.mcp).whenComplete((status, ex) -> {
			if (ex != null || status != 200) {
				if (failures.incrementAndGet() <= 3) {
					LoadHarness.log("reconnect to " + target.name + " failed: "
							+ ((ex != null) ? LoadHarness.rootMessage(ex) : "HTTP " + status));
				}
			}
		});
	}

	private static Map<String, Object> redisWork(Map<String, Long> idleBefore, Map<String, Long> before,
			Map<String, Long> after, double idleSeconds, double runSeconds, long changes) {
		Map<String, Object> work = new LinkedHashMap<>();
		long idle = total(before) - total(idleBefore);
		long run = total(after) - total(before);
		double idlePerSecond = idle / idleSeconds;
		work.put("commandsPerSecondIdle", LoadHarness.round(idlePerSecond));
		work.put("commandsDuringRun", run);
		work.put("commandsPerChange", LoadHarness.round((double) run / Math.max(1, changes)));
		work.put("commandsPerChangeNet", LoadHarness.round((run - idlePerSecond * runSeconds) / Math.max(1, changes)));
		Map<String, Object> perCommand = new LinkedHashMap<>();
		after.entrySet()
			.stream()
			.map((e) -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
			.filter((e) -> e.getValue() > 0)
			.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
			.limit(8)
			.forEach(
					(e) -> perCommand.put(e.getKey(), LoadHarness.round((double) e.getValue() / Math.max(1, changes))));
		work.put("perChangeByCommand", perCommand);
		work.put("note", "INFO commandstats deltas, server-wide");
		return work;
	}

	private static long total(Map<String, Long> calls) {
		return calls.values().stream().mapToLong(Long::longValue).sum();
	}

	private static final Pattern METRIC_VALUE = Pattern.compile("\"statistic\":\"COUNT\",\"value\":([0-9.E]+)");

	/**
	 * mcp.notifications.coalesced summed over the nodes still alive (a killed node's
	 * count is gone).
	 */
	private static long coalesced(HttpClient http, List<Node> nodes) {
		long sum = 0;
		for (Node node : nodes) {
			if (!node.alive) {
				continue;
			}
			try {
				HttpResponse<String> response = http
					.send(HttpRequest.newBuilder(node.base.resolve("/actuator/metrics/mcp.notifications.coalesced"))
						.timeout(Duration.ofSeconds(10))
						.build(), HttpResponse.BodyHandlers.ofString());
				Matcher value = METRIC_VALUE.matcher(response.body());
				if (response.statusCode() == 200 && value.find()) {
					sum += (long) Double.parseDouble(value.group(1));
				}
			}
			catch (Exception ex) {
				// Not counted.
			}
		}
		return sum;
	}

	private static Object ratio(Object value, Object baseline) {
		if (!(value instanceof Number number) || !(baseline instanceof Number base) || base.doubleValue() <= 0) {
			return null;
		}
		return LoadHarness.round(number.doubleValue() / base.doubleValue());
	}

	private static Object latency(Phase phase, String key) {
		return (phase.json().get("latencyMs") instanceof Map<?, ?> map) ? map.get(key) : null;
	}

	/** One sample-app process this harness started. */
	static final class Node {

		final String name;

		final int port;

		final URI base;

		final URI mcp;

		final Process process;

		final AtomicInteger inFlight = new AtomicInteger();

		volatile boolean alive = true;

		volatile boolean takesChanges = true;

		private Node(String name, int port, Process process) {
			this.name = name;
			this.port = port;
			this.base = URI.create("http://127.0.0.1:" + port);
			this.mcp = this.base.resolve("/mcp");
			this.process = process;
		}

		static Node start(Options options, Path work, String name, boolean cluster) throws IOException {
			int port = freePort();
			List<String> command = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java", "-Xmx512m",
					"-jar", options.jar().toAbsolutePath().toString(), "--server.address=127.0.0.1",
					"--server.port=" + port, "--sample.files.root=" + work.resolve(name + "-files"),
					"--spring.main.banner-mode=off", "--mcp.sessions.max=20000",
					"--mcp.subscriptions.max-total=2000000"));
			if (cluster) {
				command.addAll(List.of("--spring.profiles.active=cluster", "--spring.data.redis.host=127.0.0.1",
						"--spring.data.redis.port=" + options.redisPort(),
						"--spring.data.redis.database=" + options.database(), "--mcp.cluster.node-name=" + name));
			}
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(work.resolve(name + ".log").toFile())
				.start();
			Node node = new Node(name, port, process);
			STARTED.add(node);
			return node;
		}

		void awaitReady(HttpClient http) throws Exception {
			long deadline = System.nanoTime() + 180_000_000_000L;
			while (System.nanoTime() < deadline) {
				if (!this.process.isAlive()) {
					throw new IllegalStateException(
							this.name + " ended during start-up (exit " + this.process.exitValue() + "); see its log");
				}
				try {
					HttpResponse<String> health = http
						.send(HttpRequest.newBuilder(this.base.resolve("/actuator/health"))
							.timeout(Duration.ofSeconds(5))
							.build(), HttpResponse.BodyHandlers.ofString());
					if (health.statusCode() == 200) {
						return;
					}
				}
				catch (IOException ex) {
					// Not listening yet.
				}
				Thread.sleep(500);
			}
			throw new IllegalStateException(this.name + " was not ready after 180 s; see its log");
		}

		/** A graceful stop (SIGTERM), then kill -9 after 20 s. */
		void stop() {
			this.process.destroy();
			try {
				if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
					kill();
				}
			}
			catch (InterruptedException ex) {
				kill();
				Thread.currentThread().interrupt();
			}
			STARTED.remove(this);
		}

		/** kill -9 (destroyForcibly sends SIGKILL to this process on Linux). */
		void kill() {
			this.process.destroyForcibly();
		}

		static int freePort() throws IOException {
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
				return socket.getLocalPort();
			}
		}

		@Override
		public String toString() {
			return this.name + "@" + this.port + " (pid " + this.process.pid() + ")";
		}

	}

}
