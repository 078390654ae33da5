package io.github.mcpsubscriptions.benchmarks.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

import com.sun.management.OperatingSystemMXBean;
import io.github.mcpsubscriptions.benchmarks.JsonText;

/**
 * End-to-end load: N concurrent SSE subscribers of an MCP server (2025 era: initialize,
 * subscribe, GET stream; 2026 era: {@code subscriptions/listen}), changes published at a
 * given rate through a pluggable {@link ChangeTrigger}, and a report of delivered
 * notifications per second, publish-to-receive latency, errors and server heap per
 * session: one JSON line per run on standard output, and a table. Loopback only, bounded
 * in count and time; it stops by itself and closes everything it opened. Run with
 * {@code --help}.
 */
public final class LoadHarness {

	static final int MAX_SUBSCRIBERS = 10_000;

	static final int MAX_DURATION_SECONDS = 300;

	static final int MAX_WARMUP_SECONDS = 60;

	static final int MAX_RATE = 10_000;

	static final String READY_LINE = "LOAD-SERVER-READY port=";

	private static final String HELP = """
			Usage: java -cp benchmarks/target/benchmarks.jar io.github.mcpsubscriptions.benchmarks.load.LoadHarness [options]

			  --url URL               MCP endpoint of a running server (loopback only: localhost, 127.x, ::1).
			                          Default: start an embedded server (see --server).
			  --era 2025|2026         2025: initialize, resources/subscribe, GET stream (default).
			                          2026: one subscriptions/listen stream per subscriber.
			  --subscribers N         concurrent subscribers, 1..10000 (default 100)
			  --rate R                changes published per second, 0..10000 (default 100; 0 = idle sessions)
			  --duration S            seconds of publishing (or of holding idle sessions), 1..300 (default 20)
			  --warmup S              seconds of publishing at the rate before the measured window, 0..60
			                          (default 0): its notifications are awaited and left out of every
			                          figure, so that the server's code is compiled before the CPU is counted
			  --subscribe-uri URI     what each subscriber subscribes to (default catalog://products/{id});
			                          a change of resource n must produce a notification whose uri ends in n
			  --subscriptions-per-session K
			                          subscriptions per subscriber, 1..100 (default 1): the first is
			                          --subscribe-uri, the others exact URIs from it that no change matches
			  --trigger http|in-process
			                          http (default): an HTTP call per change, see --trigger-url.
			                          in-process: publish inside the harness's JVM (needs --server in-process)
			  --trigger-url URL       with {n} for the resource number (default <base of --url>/api/products/{n},
			                          the sample application's REST API); loopback only
			  --trigger-method M      default PUT
			  --trigger-body JSON     with {n} (default {"name":"load-{n}","price":{n}})
			  --ids K                 cycle through resource numbers 1..K (default: a new number per change,
			                          so nothing coalesces); for servers whose resources must exist
			  --spread K              subscriber i subscribes to the one resource (i mod K) + 1 (the {id} of
			                          --subscribe-uri filled in), and changes cycle through 1..K (--ids K):
			                          K resources, each with a K-th of the subscribers, so the server
			                          coalesces at saturation; the raw broadcaster then sends each stream
			                          only its resource's events. Default 0: every subscriber gets every change
			  --baseline none|raw|both
			                          none (default): the MCP server. raw: the raw broadcaster (N plain
			                          SseEmitters, the same bytes per event, no MCP logic). both: raw, then
			                          MCP, the MCP result carrying its ratios to raw. raw needs no --url.
			  --server fork|in-process
			                          where the embedded server runs: fork (default) a child JVM from the same
			                          jar (-Xmx4g), so its heap and file descriptors are its own; in-process:
			                          this JVM (heap per session then includes the harness's clients)
			  --server-jar JAR        fork the embedded server (MCP and raw) from this jar rather than this
			                          harness's own: the same harness then measures another build (a
			                          baseline checked out and built elsewhere) with identical load
			  --server-heap growing|fixed
			                          the forked server's heap: growing (default) from 512 MiB to 4 GiB as
			                          G1 sizes it; fixed at 4 GiB, so that the heap G1 grew to while the
			                          subscribers connected does not decide its share of the CPU
			  --server-properties P   comma-separated name=value settings for the forked embedded server (as
			                          system properties, over LoadServer's own), e.g.
			                          server.tomcat.max-http-response-header-size=1KB
			  --setup-concurrency C   subscribers set up at once (default 16)
			  --streams on|off        off: 2025-era sessions initialize and subscribe but open no GET stream
			                          (to measure the heap of idle sessions alone); default on
			  --help                  this text

			Output: a table on standard error and one JSON line per run on standard output. Among the
			figures: the trigger's round trip (PUT sent to answered, p50/p99/max: how long the
			application's own requests wait while the server delivers; the trigger has an HTTP client
			and thread of its own, apart from the subscribers' streams) and, for a forked server, its
			CPU use while publishing and draining (100% = one core), the write system calls it made
			meanwhile (and so the notifications one write carried) and its resident size, and its CPU per
			delivered notification. Freshness: for each resource published in the window, the time from
			the publication of its last change to its arrival at every subscriber of it (p50/p99/max over
			the subscriber-resource pairs, and the pairs that never got it): how soon the newest state
			reached everyone. With --spread the tail is awaited until every subscriber has it.""";

	private LoadHarness() {
	}

	/** The run's settings. */
	record Options(URI url, String era, int subscribers, int rate, int durationSeconds, int warmupSeconds,
			String subscribeUri, int subscriptionsPerSession, String trigger, String triggerUrl, String triggerMethod,
			String triggerBody, int ids, String baseline, String server, int setupConcurrency, boolean openStreams,
			String serverJar, List<String> serverProperties, int spread) {
	}

	public static void main(String[] args) throws Exception {
		if (args.length >= 2 && args[0].equals("--serve")) {
			serve(args[1].equals("raw"));
			return;
		}
		Options options;
		try {
			options = parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println("load-harness: " + ex.getMessage());
			System.err.println("Run with --help for the options.");
			System.exit(2);
			return;
		}
		if (options == null) {
			System.out.println(HELP);
			return;
		}
		int status = 0;
		Result raw = null;
		if (!options.baseline().equals("none")) {
			raw = runOnce(options, true, null);
			status |= raw.failed() ? 1 : 0;
		}
		if (!options.baseline().equals("raw")) {
			Result mcp = runOnce(options, false, raw);
			status |= mcp.failed() ? 1 : 0;
		}
		System.exit(status);
	}

	static Options parse(String[] args) {
		Map<String, String> values = optionValues(args);
		if (values == null) {
			return null;
		}
		URI url = values.containsKey("url") ? loopback(values.remove("url"), "--url") : null;
		String era = values.getOrDefault("era", "2025");
		if (!era.equals("2025") && !era.equals("2026")) {
			throw new IllegalArgumentException("--era must be 2025 or 2026");
		}
		values.remove("era");
		int subscribers = intOption(values, "subscribers", 100, 1, MAX_SUBSCRIBERS);
		int rate = intOption(values, "rate", 100, 0, MAX_RATE);
		int duration = intOption(values, "duration", 20, 1, MAX_DURATION_SECONDS);
		int warmup = intOption(values, "warmup", 0, 0, MAX_WARMUP_SECONDS);
		String subscribeUri = values.getOrDefault("subscribe-uri", LoadServer.TEMPLATE);
		values.remove("subscribe-uri");
		if (subscribeUri.contains("\"") || subscribeUri.contains("\\")) {
			throw new IllegalArgumentException("--subscribe-uri must not contain quotes or backslashes");
		}
		int perSession = intOption(values, "subscriptions-per-session", 1, 1, 100);
		String trigger = values.getOrDefault("trigger", "http");
		values.remove("trigger");
		String server = values.getOrDefault("server", "fork");
		values.remove("server");
		if (!server.equals("fork") && !server.equals("in-process")) {
			throw new IllegalArgumentException("--server must be fork or in-process");
		}
		if (trigger.equals("in-process") && (url != null || !server.equals("in-process"))) {
			throw new IllegalArgumentException(
					"--trigger in-process needs the embedded server with --server in-process");
		}
		if (!trigger.equals("http") && !trigger.equals("in-process")) {
			throw new IllegalArgumentException("--trigger must be http or in-process");
		}
		String triggerUrl = values.remove("trigger-url");
		if (triggerUrl != null) {
			loopback(triggerUrl.replace("{n}", "0"), "--trigger-url");
		}
		String triggerMethod = values.getOrDefault("trigger-method", "PUT").toUpperCase(Locale.ROOT);
		values.remove("trigger-method");
		String triggerBody = values.getOrDefault("trigger-body", "{\"name\":\"load-{n}\",\"price\":{n}}");
		values.remove("trigger-body");
		int ids = intOption(values, "ids", 0, 0, 10_000_000);
		int spread = intOption(values, "spread", 0, 0, 10_000);
		if (spread > 0) {
			if (ids != 0 && ids != spread) {
				throw new IllegalArgumentException("--spread K changes resources 1..K: leave out --ids or give K");
			}
			if (!subscribeUri.contains("{id}")) {
				throw new IllegalArgumentException("--spread needs {id} in --subscribe-uri");
			}
			ids = spread;
		}
		String baseline = values.getOrDefault("baseline", "none");
		values.remove("baseline");
		if (!List.of("none", "raw", "both").contains(baseline)) {
			throw new IllegalArgumentException("--baseline must be none, raw or both");
		}
		if (!baseline.equals("none") && url != null) {
			throw new IllegalArgumentException("the raw baseline is an embedded server: leave out --url");
		}
		int setupConcurrency = intOption(values, "setup-concurrency", 16, 1, 256);
		String serverJar = values.remove("server-jar");
		if (serverJar != null && (url != null || !server.equals("fork"))) {
			throw new IllegalArgumentException(
					"--server-jar is for the forked embedded server (no --url, --server fork)");
		}
		String propertyList = values.remove("server-properties");
		List<String> serverProperties = new ArrayList<>();
		if (propertyList != null) {
			if (url != null || !server.equals("fork")) {
				throw new IllegalArgumentException("--server-properties is for the forked embedded server");
			}
			for (String property : propertyList.split(",")) {
				if (!property.matches("[A-Za-z0-9._\\[\\]-]+=[^,]*")) {
					throw new IllegalArgumentException("--server-properties: expected name=value, got " + property);
				}
				serverProperties.add("-D" + property);
			}
		}
		String heap = values.getOrDefault("server-heap", "growing");
		values.remove("server-heap");
		if (!heap.equals("growing") && !heap.equals("fixed")) {
			throw new IllegalArgumentException("--server-heap must be growing or fixed");
		}
		if (heap.equals("fixed")) {
			if (url != null || !server.equals("fork")) {
				throw new IllegalArgumentException("--server-heap is for the forked embedded server");
			}
			// Over the -Xms512m the fork starts with: the JVM takes the last.
			serverProperties.add("-Xms4g");
		}
		if (serverJar != null && !Files.isRegularFile(Path.of(serverJar))) {
			throw new IllegalArgumentException("--server-jar: no such file " + serverJar);
		}
		String streams = values.getOrDefault("streams", "on");
		values.remove("streams");
		if (!streams.equals("on") && !streams.equals("off")) {
			throw new IllegalArgumentException("--streams must be on or off");
		}
		if (streams.equals("off") && (!era.equals("2025") || !baseline.equals("none"))) {
			throw new IllegalArgumentException("--streams off is for 2025-era sessions only (no baseline)");
		}
		if (!values.isEmpty()) {
			throw new IllegalArgumentException("unknown option(s): --" + String.join(", --", values.keySet()));
		}
		return new Options(url, era, subscribers, rate, duration, warmup, subscribeUri, perSession, trigger, triggerUrl,
				triggerMethod, triggerBody, ids, baseline, server, setupConcurrency, streams.equals("on"), serverJar,
				serverProperties, spread);
	}

	/**
	 * "--name value" pairs by name (without the dashes).
	 * @return the values, or null when help was asked for
	 */
	static Map<String, String> optionValues(String[] args) {
		Map<String, String> values = new LinkedHashMap<>();
		for (int i = 0; i < args.length; i++) {
			String name = args[i];
			if (name.equals("--help") || name.equals("-h")) {
				return null;
			}
			if (!name.startsWith("--") || i + 1 >= args.length) {
				throw new IllegalArgumentException("expected --option value, got '" + name + "'");
			}
			values.put(name.substring(2), args[++i]);
		}
		return values;
	}

	static int intOption(Map<String, String> values, String name, int fallback, int min, int max) {
		String value = values.remove(name);
		if (value == null) {
			return fallback;
		}
		int parsed;
		try {
			parsed = Integer.parseInt(value.replace("_", "").replace(",", ""));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--" + name + " must be a whole number");
		}
		if (parsed < min || parsed > max) {
			throw new IllegalArgumentException("--" + name + " must be between " + min + " and " + max);
		}
		return parsed;
	}

	/** Refuse anything that is not a loopback http(s) URL. */
	static URI loopback(String text, String option) {
		URI uri;
		try {
			uri = URI.create(text);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(option + " is not a URL: " + text);
		}
		String host = uri.getHost();
		if (uri.getScheme() == null || !uri.getScheme().matches("https?") || host == null) {
			throw new IllegalArgumentException(option + " must be an http(s) URL: " + text);
		}
		String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
		boolean ok = bare.equalsIgnoreCase("localhost") || bare.equals("::1") || bare.equals("0:0:0:0:0:0:0:1")
				|| (bare.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}") && isLoopbackLiteral(bare));
		if (!ok) {
			throw new IllegalArgumentException(
					option + " must be on this machine (localhost, 127.x, ::1), got " + host);
		}
		return uri;
	}

	private static boolean isLoopbackLiteral(String address) {
		try {
			return InetAddress.getByName(address).isLoopbackAddress();
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** What one run measured. */
	record Result(Map<String, Object> json, boolean failed) {

	}

	/** The embedded server as the run sees it. */
	private interface Server extends AutoCloseable {

		int port();

		/** Heap in use after GC, or -1 when unknown. */
		long usedHeapAfterGc() throws Exception;

		ChangeTrigger inProcessTrigger();

		/**
		 * CPU time the server's process used so far, in nanoseconds, or -1 when unknown.
		 */
		default long cpuNanos() {
			return -1;
		}

		/**
		 * The write system calls the server's process made so far ({@code syscw} of
		 * {@code /proc/<pid>/io}), or -1 when unknown: how many notifications a write
		 * carries decides much of what a notification costs.
		 */
		default long writeCalls() {
			return -1;
		}

		/** The server's resident size in bytes, or -1 when unknown. */
		default long residentBytes() {
			return -1;
		}

		@Override
		void close();

	}

	static Result runOnce(Options options, boolean raw, Result baseline) throws Exception {
		String label = raw ? "raw broadcaster" : "MCP " + options.era();
		log("=== " + label + ": " + options.subscribers() + " subscribers, " + options.rate() + " events/s, "
				+ options.durationSeconds() + " s");
		ExecutorService clientExecutor = Executors.newFixedThreadPool(2, daemon("harness-http"));
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10))
			.executor(clientExecutor)
			.build();
		Server server = null;
		List<SseSubscriber> subscribers = new ArrayList<>();
		ExecutorService setup = Executors.newFixedThreadPool(options.setupConcurrency(), daemon("harness-setup"));
		// The trigger's calls get a client and a thread of their own: their round trip
		// then
		// measures the server, not the harness's threads busy parsing streams.
		ExecutorService triggerExecutor = Executors.newSingleThreadExecutor(daemon("harness-trigger"));
		HttpClient triggerHttp = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10))
			.executor(triggerExecutor)
			.build();
		ChangeTrigger trigger = null;
		try {
			URI endpoint;
			if (options.url() != null) {
				endpoint = options.url();
			}
			else {
				server = options.server().equals("fork")
						? forkServer(raw, options.serverJar(), options.serverProperties()) : inProcessServer(raw);
				endpoint = URI.create("http://127.0.0.1:" + server.port() + (raw ? "/raw/stream" : "/mcp"));
			}
			log("endpoint " + endpoint);
			long heapBefore = (server != null) ? server.usedHeapAfterGc() : -1;

			long events = (long) options.rate() * options.durationSeconds();
			long warmupEvents = (long) options.rate() * options.warmupSeconds();
			// Warm-up changes take the numbers after the measured ones.
			int slots = (int) ((options.ids() > 0) ? options.ids() + 1 : events + warmupEvents + 2);
			long[] publishedAt = new long[slots];
			LatencyStats stats = new LatencyStats();
			AtomicLong streamErrors = new AtomicLong();
			AtomicLong streamsEnded = new AtomicLong();
			// The measured window's changes have numbers 1..events (or 1..ids).
			long lastNumber = (options.ids() > 0) ? options.ids() : events;
			Freshness freshness = Freshness.fits(options.subscribers(), lastNumber + 1)
					? new Freshness(options.subscribers(), (int) lastNumber + 1) : null;
			SseSubscriber.Context context = new SseSubscriber.Context(http, endpoint, stats, publishedAt, streamErrors,
					streamsEnded, freshness);

			// Set up the subscribers, a bounded number at a time: first a tenth of them
			// (which
			// also warms the server up), then the rest. Heap per session is the growth of
			// the
			// server's heap (after GC) over the second batch, divided by its size.
			long setupStart = System.nanoTime();
			AtomicInteger firstErrors = new AtomicInteger();
			List<CompletableFuture<Void>> readies = new ArrayList<>();
			int firstBatch = (options.subscribers() >= 10) ? options.subscribers() / 10 : options.subscribers();
			openBatch(options, raw, context, subscribers, readies, 0, firstBatch, setup, firstErrors);
			long readyFirst = readies.stream().filter((f) -> !f.isCompletedExceptionally()).count();
			long heapFirst = (server != null && firstBatch < options.subscribers()) ? server.usedHeapAfterGc()
					: heapBefore;
			openBatch(options, raw, context, subscribers, readies, firstBatch, options.subscribers(), setup,
					firstErrors);
			long ready = readies.stream().filter((f) -> f.isDone() && !f.isCompletedExceptionally()).count();
			long setupErrors = options.subscribers() - ready;
			double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
			log(String.format(Locale.ROOT, "%d of %d subscribers ready in %.1f s", ready, options.subscribers(),
					setupSeconds));
			Thread.sleep(1000);
			long heapOpen = (server != null) ? server.usedHeapAfterGc() : -1;
			long measuredSessions = (firstBatch < options.subscribers()) ? ready - readyFirst : ready;

			trigger = makeTrigger(options, server, endpoint, triggerHttp);
			if (warmupEvents > 0) {
				log("warming up: " + warmupEvents + " changes");
				publish(options, trigger, publishedAt, warmupEvents, events, System.nanoTime());
				awaitDrain(stats, warmupEvents * ready);
				stats.reset();
				// The warm-up's changes were all answered before their notifications
				// drained.
				LatencyStats warmupRoundTrips = trigger.roundTrips();
				if (warmupRoundTrips != null) {
					warmupRoundTrips.reset();
				}
			}
			// Publish at the rate, for the duration (or hold the sessions idle).
			log("measuring: " + events + " changes");
			long published = 0;
			long cpuBefore = (server != null) ? server.cpuNanos() : -1;
			long harnessCpuBefore = harnessCpuNanos();
			long harnessGcBefore = harnessGcMillis();
			long writesBefore = (server != null) ? server.writeCalls() : -1;
			long firstPublish = System.nanoTime();
			long windowStartEpochMillis = System.currentTimeMillis();
			stats.startWindow(firstPublish);
			if (options.rate() == 0) {
				Thread.sleep(options.durationSeconds() * 1000L);
			}
			else {
				publish(options, trigger, publishedAt, events, 0, firstPublish);
				published = events;
			}
			long publishEnd = System.nanoTime();
			trigger.close();
			long expected = published * ready;
			long cpuAtLastArrival = Long.MIN_VALUE;
			IntPredicate isReady = (s) -> s < readies.size() && readies.get(s).isDone()
					&& !readies.get(s).isCompletedExceptionally();
			Freshness.Subscriptions subscribed = (s, n) -> options.spread() == 0 || (s % options.spread()) + 1 == n;
			if (options.spread() > 0) {
				// Coalescing skips changes rightly: what must arrive is every resource's
				// last.
				expected = 0;
				for (long n = 1; n <= options.spread(); n++) {
					long subscribersOfN = (options.subscribers() + options.spread() - n) / options.spread();
					expected += subscribersOfN
							* Math.min(published, Math.max(0, (published + options.spread() - n) / options.spread()));
				}
				Server measured = server;
				cpuAtLastArrival = awaitFresh(freshness, publishedAt, lastNumber, isReady, subscribed, stats,
						() -> (measured != null) ? measured.cpuNanos() : -1);
			}
			else {
				awaitDrain(stats, expected);
			}
			long delivered = stats.count();
			long cpuAfter = (cpuAtLastArrival != Long.MIN_VALUE) ? cpuAtLastArrival
					: (server != null) ? server.cpuNanos() : -1;
			long harnessCpuAfter = harnessCpuNanos();
			long harnessGcAfter = harnessGcMillis();
			long writesAfter = (server != null) ? server.writeCalls() : -1;
			// With --spread the server's CPU was read at the last arrival.
			long cpuWindowEnd = (cpuAtLastArrival != Long.MIN_VALUE) ? Math.max(stats.lastReceiveNanos(), publishEnd)
					: System.nanoTime();
			log("window ended");
			long resident = (server != null) ? server.residentBytes() : -1;
			// After the CPU window: what the run left on the heap (replay logs, say).
			long heapAfterRun = (server != null && heapOpen > 0) ? server.usedHeapAfterGc() : -1;
			long end = Math.max(stats.lastReceiveNanos(), publishEnd);
			double seconds = Math.max(1e-9, (end - firstPublish) / 1e9);
			double publishSeconds = Math.max(1e-9, (publishEnd - firstPublish) / 1e9);

			Map<String, Object> json = new LinkedHashMap<>();
			json.put("harness", "mcp-subscriptions-load");
			json.put("server", (options.url() != null) ? "remote" : (raw ? "embedded-raw" : "embedded-mcp"));
			json.put("era", raw ? "raw" : options.era());
			json.put("subscribers", options.subscribers());
			json.put("subscribersReady", ready);
			json.put("subscriptionsPerSession", raw ? 0 : options.subscriptionsPerSession());
			json.put("streams", raw || options.openStreams());
			json.put("rate", options.rate());
			json.put("durationSeconds", options.durationSeconds());
			json.put("warmupSeconds", options.warmupSeconds());
			json.put("trigger", options.trigger());
			json.put("eventsPublished", published);
			json.put("achievedRate", round(published / publishSeconds));
			json.put("notificationsExpected", expected);
			json.put("notificationsDelivered", delivered);
			json.put("deliveredPerSecond", round(delivered / seconds));
			Map<String, Object> latency = new LinkedHashMap<>();
			latency.put("p50", round(stats.percentileMillis(50)));
			latency.put("p99", round(stats.percentileMillis(99)));
			latency.put("max", round(stats.maxMillis()));
			json.put("latencyMs", latency);
			json.put("windowStartEpochMillis", windowStartEpochMillis);
			// A trigger that fell behind publishes past the window's last second: a few
			// more.
			json.put("p99BySecondMs",
					Arrays.stream(stats.p99BySecond(options.durationSeconds() + 5))
						.mapToObj((v) -> Double.isNaN(v) ? null : (Object) round(v))
						.toList());
			LatencyStats roundTrips = trigger.roundTrips();
			Map<String, Object> roundTrip = null;
			if (roundTrips != null && roundTrips.count() > 0) {
				roundTrip = new LinkedHashMap<>();
				roundTrip.put("p50", round(roundTrips.percentileMillis(50)));
				roundTrip.put("p99", round(roundTrips.percentileMillis(99)));
				roundTrip.put("max", round(roundTrips.maxMillis()));
				roundTrip.put("count", roundTrips.count());
			}
			json.put("triggerRoundTripMs", roundTrip);
			json.put("serverCpuPercent", (cpuBefore >= 0 && cpuAfter >= 0)
					? round(100.0 * (cpuAfter - cpuBefore) / Math.max(1, cpuWindowEnd - firstPublish)) : null);
			// The clients share the machine: a harness short of CPU delays what it reads.
			json.put("harnessCpuPercent",
					(harnessCpuBefore >= 0 && harnessCpuAfter >= 0) ? round(
							100.0 * (harnessCpuAfter - harnessCpuBefore) / Math.max(1, cpuWindowEnd - firstPublish))
							: null);
			// A paused harness reads nothing: its collections' time shows up as latency.
			json.put("harnessGcMillis",
					(harnessGcBefore >= 0 && harnessGcAfter >= 0) ? harnessGcAfter - harnessGcBefore : null);
			long writes = (writesBefore >= 0 && writesAfter >= 0) ? writesAfter - writesBefore : -1;
			json.put("serverWriteCalls", (writes >= 0) ? writes : null);
			json.put("notificationsPerWrite", (writes > 0) ? round((double) delivered / writes) : null);
			json.put("serverCpuMicrosPerNotification", (cpuBefore >= 0 && cpuAfter >= 0 && delivered > 0)
					? round((cpuAfter - cpuBefore) / 1000.0 / delivered) : null);
			json.put("spread", options.spread());
			json.put("freshnessMs", (freshness != null && published > 0)
					? freshness.figure(publishedAt, 1, Math.min(lastNumber, published), isReady, subscribed) : null);
			json.put("serverResidentMiB", (resident > 0) ? round(resident / 1048576.0) : null);
			Map<String, Object> errors = new LinkedHashMap<>();
			errors.put("setup", setupErrors);
			errors.put("stream", streamErrors.get());
			errors.put("streamEndedEarly", streamsEnded.get());
			errors.put("trigger", trigger.errors());
			// With --spread the server may coalesce: what it skipped is not missing (the
			// freshness figure counts the last changes that never arrived).
			errors.put("missing", (options.spread() > 0) ? null : Math.max(0, expected - delivered));
			errors.put("unmatched", stats.unmatchedCount());
			json.put("errors", errors);
			if (server != null && heapFirst > 0 && heapOpen > 0) {
				json.put("heapPerSessionBytes",
						Math.round((double) (heapOpen - heapFirst) / Math.max(1, measuredSessions)));
				json.put("heapNote", (options.server().equals("fork") ? "server JVM"
						: "in-process, includes the harness's clients")
						+ ": used heap after GC with all subscribers open minus with the first tenth open, / the other nine tenths"
						+ ((options.openStreams() || raw) ? "" : " (sessions without streams)"));
				json.put("heapAfterRunPerSessionBytes", (heapAfterRun > 0)
						? Math.round((double) (heapAfterRun - heapOpen) / Math.max(1, ready)) : null);
			}
			else {
				json.put("heapPerSessionBytes", null);
				json.put("heapNote", "unavailable for a server the harness did not start (--url)");
			}
			json.put("setupSeconds", round(setupSeconds));
			json.put("javaVersion", System.getProperty("java.version"));
			json.put("cores", Runtime.getRuntime().availableProcessors());
			if (baseline != null) {
				Map<String, Object> ratio = new LinkedHashMap<>();
				ratio.put("deliveredPerSecond",
						ratioOf(json.get("deliveredPerSecond"), baseline.json(), "deliveredPerSecond"));
				ratio.put("p99", ratioOf(latency.get("p99"), baseline.json().get("latencyMs"), "p99"));
				ratio.put("p50", ratioOf(latency.get("p50"), baseline.json().get("latencyMs"), "p50"));
				ratio.put("cpuPerNotification", ratioOf(json.get("serverCpuMicrosPerNotification"), baseline.json(),
						"serverCpuMicrosPerNotification"));
				ratio.put("freshnessP99", ratioOf(((Map<?, ?>) json.getOrDefault("freshnessMs", Map.of())).get("p99"),
						baseline.json().get("freshnessMs"), "p99"));
				ratio.put("heapPerSession",
						ratioOf(json.get("heapPerSessionBytes"), baseline.json(), "heapPerSessionBytes"));
				ratio.put("triggerRoundTripP50", (roundTrip != null)
						? ratioOf(roundTrip.get("p50"), baseline.json().get("triggerRoundTripMs"), "p50") : null);
				json.put("ratioToRaw", ratio);
			}
			printTable(label, json);
			System.out.println(toJson(json));
			System.out.flush();
			boolean failed = ready == 0;
			return new Result(json, failed);
		}
		finally {
			for (SseSubscriber subscriber : subscribers) {
				subscriber.close();
			}
			if (options.url() != null && options.era().equals("2025")) {
				// A server the harness did not start keeps sessions until they expire:
				// end them.
				List<CompletableFuture<Void>> deletes = new ArrayList<>();
				for (SseSubscriber subscriber : subscribers) {
					deletes.add(CompletableFuture.runAsync(subscriber::deleteSession, setup));
				}
				try {
					CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					log("not every session could be deleted: " + rootMessage(ex));
				}
			}
			setup.shutdownNow();
			if (server != null) {
				server.close();
			}
			clientExecutor.shutdownNow();
			triggerExecutor.shutdownNow();
		}
	}

	private static void openBatch(Options options, boolean raw, SseSubscriber.Context context,
			List<SseSubscriber> subscribers, List<CompletableFuture<Void>> readies, int from, int to,
			ExecutorService setup, AtomicInteger firstErrors) {
		List<CompletableFuture<Void>> batch = new ArrayList<>();
		for (int i = from; i < to; i++) {
			SseSubscriber subscriber = new SseSubscriber(context, i);
			subscribers.add(subscriber);
			List<String> uris = subscriptionUris(options, i);
			batch.add(CompletableFuture.runAsync(() -> {
				try {
					if (raw && options.spread() > 0) {
						subscriber.openRaw(URI
							.create(context.endpoint() + "?n=" + ((subscriber.number() % options.spread()) + 1)));
					}
					else if (raw) {
						subscriber.openRaw();
					}
					else if (options.era().equals("2025")) {
						subscriber.open2025(uris, options.openStreams());
					}
					else {
						subscriber.open2026(uris);
					}
					subscriber.ready().get(60, TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}, setup).whenComplete((ignored, ex) -> {
				if (ex != null && firstErrors.incrementAndGet() <= 3) {
					log("subscriber set-up failed: " + rootMessage(ex));
				}
			}));
		}
		try {
			CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new))
				.get(MAX_DURATION_SECONDS, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			// Counted as not ready.
		}
		readies.addAll(batch);
	}

	private static Object ratioOf(Object value, Object baseline, String key) {
		if (!(baseline instanceof Map<?, ?> map) || !(value instanceof Number number)
				|| !(map.get(key) instanceof Number base) || base.doubleValue() <= 0) {
			return null;
		}
		return round(number.doubleValue() / base.doubleValue());
	}

	static List<String> subscriptionUris(Options options, int subscriber) {
		List<String> uris = new ArrayList<>();
		String uri = options.subscribeUri();
		if (options.spread() > 0) {
			uri = uri.replace("{id}", Long.toString((subscriber % options.spread()) + 1));
		}
		uris.add(uri);
		for (int k = 1; k < options.subscriptionsPerSession(); k++) {
			// Exact URIs that no change of the run matches (numbers above any published
			// one).
			String extra = Long.toString(1_000_000_000L + subscriber * 100L + k);
			int open = uri.indexOf('{');
			int close = uri.indexOf('}', Math.max(open, 0));
			uris.add((open >= 0 && close > open) ? uri.substring(0, open) + extra + uri.substring(close + 1)
					: uri + "/" + extra);
		}
		return uris;
	}

	private static ChangeTrigger makeTrigger(Options options, Server server, URI endpoint, HttpClient http) {
		if (options.trigger().equals("in-process")) {
			return server.inProcessTrigger();
		}
		String url = options.triggerUrl();
		if (url == null) {
			url = endpoint.getScheme() + "://" + endpoint.getRawAuthority() + "/api/products/{n}";
		}
		return new ChangeTrigger.Http(http, url, options.triggerMethod(), options.triggerBody());
	}

	private static Server inProcessServer(boolean raw) {
		LoadServer server = LoadServer.start(raw);
		return new Server() {

			@Override
			public int port() {
				return server.port();
			}

			@Override
			public long usedHeapAfterGc() {
				return LoadServer.usedHeapAfterGc();
			}

			@Override
			public ChangeTrigger inProcessTrigger() {
				return new ChangeTrigger.InProcess(server.publisher());
			}

			@Override
			public void close() {
				server.close();
			}

		};
	}

	/**
	 * Start the embedded server in a child JVM from the same class path: its heap and its
	 * file descriptors are then its own. It ends when the harness closes its standard
	 * input (or dies).
	 */
	private static Server forkServer(boolean raw, String serverJar, List<String> properties) throws Exception {
		String java = System.getProperty("java.home") + "/bin/java";
		List<String> command = new ArrayList<>(List.of(java, "-Xms512m", "-Xmx4g"));
		command.addAll(properties);
		command.addAll(List.of("-cp", (serverJar != null) ? serverJar : System.getProperty("java.class.path"),
				LoadHarness.class.getName(), "--serve", raw ? "raw" : "mcp"));
		ProcessBuilder builder = new ProcessBuilder(command);
		builder.redirectErrorStream(true);
		Process process = builder.start();
		// For scripts that read the server's threads in /proc (server-threads.sh).
		log("server pid " + process.pid());
		Thread killer = new Thread(process::destroyForcibly);
		Runtime.getRuntime().addShutdownHook(killer);
		BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		CompletableFuture<Integer> port = new CompletableFuture<>();
		Thread reader = new Thread(() -> {
			try {
				String line;
				while ((line = output.readLine()) != null) {
					if (line.startsWith(READY_LINE)) {
						port.complete(Integer.parseInt(line.substring(READY_LINE.length()).trim()));
					}
					else {
						System.err.println("[server] " + line);
					}
				}
			}
			catch (IOException ex) {
				// The server ended.
			}
			port.completeExceptionally(new IllegalStateException("the embedded server ended before it was ready"));
		}, "harness-server-output");
		reader.setDaemon(true);
		reader.start();
		int serverPort;
		try {
			serverPort = port.get(120, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			process.destroyForcibly();
			throw ex;
		}
		HttpClient control = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		return new Server() {

			@Override
			public int port() {
				return serverPort;
			}

			@Override
			public long usedHeapAfterGc() throws Exception {
				HttpResponse<String> response = control
					.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serverPort + "/harness/heap"))
						.timeout(Duration.ofSeconds(60))
						.build(), HttpResponse.BodyHandlers.ofString());
				String body = response.body();
				int at = body.indexOf(':');
				return Long.parseLong(body.substring(at + 1).replaceAll("[^0-9]", ""));
			}

			@Override
			public ChangeTrigger inProcessTrigger() {
				throw new IllegalStateException("--trigger in-process needs --server in-process");
			}

			@Override
			public long cpuNanos() {
				return process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
			}

			@Override
			public long writeCalls() {
				return procNumber(process.pid(), "io", "syscw:");
			}

			@Override
			public long residentBytes() {
				long kibibytes = procNumber(process.pid(), "status", "VmRSS:");
				return (kibibytes >= 0) ? kibibytes * 1024 : -1;
			}

			@Override
			public void close() {
				try {
					process.getOutputStream().close();
					if (!process.waitFor(20, TimeUnit.SECONDS)) {
						process.destroyForcibly();
					}
				}
				catch (IOException | InterruptedException ex) {
					process.destroyForcibly();
				}
				Runtime.getRuntime().removeShutdownHook(killer);
			}

		};
	}

	/** The child JVM: run a server until standard input closes. */
	private static void serve(boolean raw) throws IOException {
		LoadServer server = LoadServer.start(raw);
		System.out.println(READY_LINE + server.port());
		System.out.flush();
		while (System.in.read() >= 0) {
			// Wait for the harness to close the pipe (or to die).
		}
		server.close();
		System.exit(0);
	}

	static void printTable(String label, Map<String, Object> json) {
		StringBuilder table = new StringBuilder("\n").append(label).append('\n');
		for (Map.Entry<String, Object> entry : json.entrySet()) {
			if (entry.getKey().equals("harness")) {
				continue;
			}
			table.append(String.format(Locale.ROOT, "  %-24s %s%n", entry.getKey(), entry.getValue()));
		}
		System.err.println(table);
	}

	/** CPU time this process (the harness and its clients) used so far, or -1. */
	private static long harnessCpuNanos() {
		return (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os)
				? os.getProcessCpuTime() : -1;
	}

	/**
	 * Time this process spent in garbage collections so far (their pauses, for G1's young
	 * ones), or -1.
	 */
	private static long harnessGcMillis() {
		long total = 0;
		for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
			long time = collector.getCollectionTime();
			if (time < 0) {
				return -1;
			}
			total += time;
		}
		return total;
	}

	static String toJson(Object value) {
		if (value == null) {
			return "null";
		}
		if (value instanceof Map<?, ?> map) {
			StringBuilder json = new StringBuilder("{");
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				if (json.length() > 1) {
					json.append(',');
				}
				json.append(toJson(String.valueOf(entry.getKey()))).append(':').append(toJson(entry.getValue()));
			}
			return json.append('}').toString();
		}
		if (value instanceof List<?> list) {
			StringBuilder json = new StringBuilder("[");
			for (Object element : list) {
				if (json.length() > 1) {
					json.append(',');
				}
				json.append(toJson(element));
			}
			return json.append(']').toString();
		}
		if (value instanceof Number number) {
			double d = number.doubleValue();
			return (Double.isNaN(d) || Double.isInfinite(d)) ? "null" : number.toString();
		}
		if (value instanceof Boolean) {
			return value.toString();
		}
		StringBuilder json = new StringBuilder("\"");
		JsonText.escape(json, value.toString());
		return json.append('"').toString();
	}

	static Object round(double value) {
		if (Double.isNaN(value)) {
			return Double.NaN;
		}
		return Math.round(value * 1000) / 1000.0;
	}

	static String rootMessage(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ": " + root.getMessage();
	}

	static ThreadFactory daemon(String name) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * The number on the line of {@code /proc/<pid>/<file>} that starts with {@code key}.
	 * @return the number, or -1 when unknown (not Linux, the process gone)
	 */
	private static long procNumber(long pid, String file, String key) {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/" + file))) {
				if (line.startsWith(key)) {
					return Long.parseLong(line.replaceAll("[^0-9]", ""));
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Not Linux: unknown.
		}
		return -1;
	}

	/**
	 * Fire {@code count} changes at the rate from {@code start}; change k gets number
	 * {@code first + k + 1} (or cycles through {@code --ids}).
	 */
	private static void publish(Options options, ChangeTrigger trigger, long[] publishedAt, long count, long first,
			long start) {
		long interval = 1_000_000_000L / options.rate();
		for (long k = 0; k < count; k++) {
			long due = start + k * interval;
			long wait;
			while ((wait = due - System.nanoTime()) > 0) {
				LockSupport.parkNanos(wait);
			}
			long n = (options.ids() > 0) ? ((first + k) % options.ids()) + 1 : first + k + 1;
			publishedAt[(int) n] = System.nanoTime();
			trigger.fire(n);
		}
	}

	/**
	 * Wait for the tail of a run whose server may coalesce, where the count of
	 * notifications cannot say when it ended: until every subscriber has had a
	 * notification of its resource after the resource's last change and nothing more has
	 * arrived for a second (a notification already on its way when the last change was
	 * published may arrive before the one that carries it), nothing arrives for 3 s, or
	 * 30 s pass (a server that does not coalesce has its backlog to write).
	 * @return the server's CPU time when the last notification arrived (or -1): the quiet
	 * second after it is not the delivery's
	 */
	private static long awaitFresh(Freshness freshness, long[] publishedAt, long lastNumber, IntPredicate ready,
			Freshness.Subscriptions subscribed, LatencyStats stats, LongSupplier serverCpu)
			throws InterruptedException {
		long start = System.nanoTime();
		long lastCount = stats.count();
		long lastProgress = start;
		long cpuAtLastProgress = serverCpu.getAsLong();
		while (System.nanoTime() - start < Duration.ofSeconds(30).toNanos()
				&& System.nanoTime() - lastProgress < Duration.ofSeconds(3).toNanos()) {
			Thread.sleep(20);
			long count = stats.count();
			if (count != lastCount) {
				lastCount = count;
				lastProgress = System.nanoTime();
				cpuAtLastProgress = serverCpu.getAsLong();
			}
			else if (System.nanoTime() - lastProgress >= Duration.ofSeconds(1).toNanos()
					&& (freshness == null || freshness.complete(publishedAt, 1, lastNumber, ready, subscribed))) {
				break;
			}
		}
		return cpuAtLastProgress;
	}

	/**
	 * Wait for the tail: until everything arrived, nothing arrives for 3 s, or 15 s pass.
	 */
	private static void awaitDrain(LatencyStats stats, long expected) throws InterruptedException {
		awaitDrain(stats, expected, Duration.ofSeconds(3), Duration.ofSeconds(15));
	}

	/**
	 * Wait for the tail: until everything arrived, nothing arrives for {@code quiet}, or
	 * {@code most} passes.
	 */
	static void awaitDrain(LatencyStats stats, long expected, Duration quiet, Duration most)
			throws InterruptedException {
		long drainStart = System.nanoTime();
		long lastCount = -1;
		long lastProgress = drainStart;
		while (stats.count() < expected && System.nanoTime() - drainStart < most.toNanos()
				&& System.nanoTime() - lastProgress < quiet.toNanos()) {
			Thread.sleep(100);
			long count = stats.count();
			if (count != lastCount) {
				lastCount = count;
				lastProgress = System.nanoTime();
			}
		}
	}

	static void log(String message) {
		System.err.println("[harness] " + message);
	}

}
