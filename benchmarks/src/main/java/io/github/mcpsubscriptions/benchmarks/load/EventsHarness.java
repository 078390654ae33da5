package io.github.mcpsubscriptions.benchmarks.load;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.github.mcpsubscriptions.tester.McpNotification;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;

/**
 * Measures the MCP Events extension (draft SEP-3415) of the sample application end to
 * end, against the resource notifications of the same changes in the same run. The sample
 * runs from its jar in its {@code secure} profile (webhooks need a principal), on a free
 * loopback port; its REST API changes products, each change publishing
 * {@code catalog.product.changed} and {@code notifications/resources/updated} after its
 * commit. Three receivers take every change at once:
 * <ul>
 * <li><b>webhook</b>: {@code --webhooks} subscriptions by {@code events/subscribe}, each
 * to its own path of one HTTPS receiver on loopback (a certificate made by
 * {@code keytool}, trusted through an SSL bundle of the sample);</li>
 * <li><b>push</b>: {@code --streams} {@code events/stream} requests, read as SSE;</li>
 * <li><b>resource</b>: as many {@code subscriptions/listen} streams on
 * {@code catalog://products}.</li>
 * </ul>
 * Two phases: <b>latency</b>, changes at a steady rate, one product each, to the arrival
 * of its event or notification at the first receiver of each kind, p50, p99 and maximum,
 * from the moment the change's REST call started and from the moment it returned (the
 * commit is in between); <b>burst</b>, changes by {@code --writers} writers as fast as
 * they go, and per kind of receiver the events (or notifications) per second, all its
 * receivers together, from the first change's call to the last arrival. One JSON line on
 * standard output. Loopback only; it stops the process it started, also on failure.
 */
public final class EventsHarness {

	private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"events-harness\",\"version\":\"1\"},"
			+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";

	private static final String TYPE = "catalog.product.changed";

	/**
	 * The product names the changes give, by phase and index: how arrivals are matched.
	 */
	private static final Pattern CHANGE = Pattern.compile("\"name\":\"bench-([LB])(\\d+)\"");

	private static final Pattern PRODUCT_URI = Pattern.compile("catalog://products/(\\d+)");

	private static final String USAGE = """
			EventsHarness: the sample's MCP events (draft SEP-3415) by webhook and push, against its resource notifications.
			  --jar PATH       the sample's executable jar (default sample-app/target/sample-app-0.1.0-SNAPSHOT.jar)
			  --rate N         latency: changes per second (default 50)
			  --changes N      latency: changes, each of another product (default 1000)
			  --burst N        burst: changes, each of another product (default 3000)
			  --writers N      burst: REST calls at once (default 4)
			  --webhooks N     webhook subscriptions, each receiving every change (default 4)
			  --streams N      push streams, and as many listen streams, each receiving every change (default 4)
			  --phases LIST    latency,burst (default both)
			  --help           this text""";

	private final Options options;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final Path work;

	private SampleProcess sample;

	private String token;

	private LoopbackWebhookReceiver receiver;

	/** Per phase, then per receiver: the arrival times, by change index. */
	private final Map<String, Arrivals> arrivals = new ConcurrentHashMap<>();

	private EventsHarness(Options options) throws IOException {
		this.options = options;
		this.work = Files.createTempDirectory("events-harness");
	}

	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		if (options == null) {
			System.err.println(USAGE);
			return;
		}
		EventsHarness harness = new EventsHarness(options);
		Map<String, Object> result;
		try {
			result = harness.run();
		}
		finally {
			harness.stop();
		}
		System.out.println(HarnessFigures.json(result));
	}

	private Map<String, Object> run() throws Exception {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("cores", Runtime.getRuntime().availableProcessors());
		result.put("loadAverageAtStart", HarnessFigures.loadAverage());
		this.receiver = new LoopbackWebhookReceiver(this.work, Math.max(4, this.options.webhooks), EventsHarness::now,
				(path, body, at) -> arrived("webhook" + path.substring(path.lastIndexOf('/') + 1), body, at));
		Path certificate = this.receiver.certificate();
		this.sample = SampleProcess.start(this.options.jar, "events-harness",
				List.of("--spring.profiles.active=secure", "--mcp.events.webhooks.allowed-networks=127.0.0.0/8",
						"--mcp.events.webhooks.ssl-bundle=receiver",
						"--spring.ssl.bundle.pem.receiver.truststore.certificate=file:" + certificate.toAbsolutePath(),
						"--mcp.events.webhooks.max-subscriptions-per-principal=" + (this.options.webhooks + 10),
						"--mcp.notifications.outbox-capacity=" + (this.options.burst + 1000)));
		this.token = token();
		List<String> phases = Arrays.asList(this.options.phases.split(","));
		long[] latencyProducts = phases.contains("latency") ? createProducts(this.options.changes) : new long[0];
		long[] burstProducts = phases.contains("burst") ? createProducts(this.options.burst) : new long[0];
		for (int k = 0; k < this.options.webhooks; k++) {
			subscribeWebhook(k);
		}
		result.put("webhooks", this.options.webhooks);
		Map<Long, String> changeByProduct = new ConcurrentHashMap<>();
		McpTester tester = McpTester.forUrl(this.sample.base().resolve("/mcp").toString())
			.withBearerToken(this.token)
			.withTimeout(Duration.ofSeconds(30));
		List<AutoCloseable> open = new ArrayList<>();
		try {
			String refused = null;
			for (int s = 0; s < this.options.streams; s++) {
				McpSubscription resources = tester.listen("catalog://products");
				open.add(resources);
				String receiver = "resource" + s;
				daemon("resource-reader-" + s, () -> readResources(resources, receiver, changeByProduct));
				PushStream push = openPush("push" + s);
				open.add(push);
				refused = (refused != null) ? refused : push.refused;
			}
			result.put("streams", this.options.streams);
			result.put("push", (refused != null) ? refused : "open");
			if (phases.contains("latency")) {
				result.put("latency", latency(latencyProducts, changeByProduct, refused == null));
			}
			if (phases.contains("burst")) {
				result.put("burst", burst(burstProducts, changeByProduct, refused == null));
			}
		}
		finally {
			for (AutoCloseable stream : open) {
				stream.close();
			}
		}
		result.put("duplicateWebhookDeliveries", this.receiver.duplicates());
		result.put("loadAverageAtEnd", HarnessFigures.loadAverage());
		return result;
	}

	private Map<String, Object> latency(long[] products, Map<Long, String> changeByProduct, boolean push)
			throws Exception {
		int n = products.length;
		for (int i = 0; i < n; i++) {
			changeByProduct.put(products[i], "L" + i);
		}
		long[] committedAt = new long[n];
		long[] calledAt = new long[n];
		long period = 1_000_000_000L / this.options.rate;
		long start = System.nanoTime();
		for (int i = 0; i < n; i++) {
			long wait = start + i * period - System.nanoTime();
			if (wait > 0) {
				LockSupport.parkNanos(wait);
			}
			calledAt[i] = now();
			change(products[i], "L" + i);
			committedAt[i] = now();
		}
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("changes", n);
		figures.put("offeredPerSecond", this.options.rate);
		figures.put("achievedPerSecond", HarnessFigures.round(n / ((System.nanoTime() - start) / 1e9)));
		long[] calls = new long[n];
		for (int i = 0; i < n; i++) {
			calls[i] = committedAt[i] - calledAt[i];
		}
		figures.put("restCallMs", percentiles(calls, n));
		for (String receiver : List.of("resource", "webhook", "push")) {
			if (receiver.equals("push") && !push) {
				continue;
			}
			Arrivals got = arrivals("L", receiver + "0");
			got.await(n, Duration.ofSeconds(30));
			long[] fromReturn = new long[n];
			long[] fromCall = new long[n];
			int k = 0;
			for (int i = 0; i < n; i++) {
				long at = got.at(i);
				if (at != 0) {
					fromReturn[k] = at - committedAt[i];
					fromCall[k++] = at - calledAt[i];
				}
			}
			Map<String, Object> stats = new LinkedHashMap<>();
			// The commit is between the two: after the call left, before its answer came.
			stats.put("fromCallReturn", percentiles(fromReturn, k));
			stats.put("fromCallStart", percentiles(fromCall, k));
			stats.put("missing", n - k);
			figures.put(receiver, stats);
		}
		return figures;
	}

	private Map<String, Object> burst(long[] products, Map<Long, String> changeByProduct, boolean push)
			throws Exception {
		int n = products.length;
		for (int i = 0; i < n; i++) {
			changeByProduct.put(products[i], "B" + i);
		}
		AtomicInteger next = new AtomicInteger();
		ExecutorService writers = Executors.newFixedThreadPool(this.options.writers);
		long start = now();
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int w = 0; w < this.options.writers; w++) {
				running.add(writers.submit(() -> {
					for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
						change(products[i], "B" + i);
					}
					return null;
				}));
			}
			for (Future<?> writer : running) {
				writer.get(10, TimeUnit.MINUTES);
			}
		}
		finally {
			writers.shutdownNow();
		}
		long written = now();
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("changes", n);
		figures.put("writers", this.options.writers);
		figures.put("changesPerSecond", HarnessFigures.round(n / ((written - start) / 1e9)));
		for (String mode : List.of("resource", "webhook", "push")) {
			int receivers = mode.equals("webhook") ? this.options.webhooks : this.options.streams;
			if (mode.equals("push") && !push) {
				continue;
			}
			int all = 0;
			long last = start;
			for (int k = 0; k < receivers; k++) {
				Arrivals got = arrivals("B", mode + k);
				got.await(n, Duration.ofSeconds(60));
				all += got.count();
				last = Math.max(last, got.last());
			}
			Map<String, Object> stats = new LinkedHashMap<>();
			stats.put("receivers", receivers);
			stats.put("received", all);
			stats.put("missing", n * receivers - all);
			stats.put("perSecond", HarnessFigures.round(all / ((last - start) / 1e9)));
			figures.put(mode, stats);
		}
		return figures;
	}

	private Arrivals arrivals(String phase, String receiver) {
		int size = phase.equals("L") ? this.options.changes : this.options.burst;
		return this.arrivals.computeIfAbsent(phase + "/" + receiver, (key) -> new Arrivals(size));
	}

	/** Records an arrival named by the product name in a body, if it names one. */
	private void arrived(String receiver, String body, long at) {
		Matcher matcher = CHANGE.matcher(body);
		if (matcher.find()) {
			arrivals(matcher.group(1), receiver).arrived(Integer.parseInt(matcher.group(2)), at);
		}
	}

	private void readResources(McpSubscription resources, String receiver, Map<Long, String> changeByProduct) {
		while (!Thread.currentThread().isInterrupted()) {
			McpNotification notification;
			try {
				notification = resources.awaitNotification(Duration.ofSeconds(120));
			}
			catch (AssertionError | RuntimeException ex) {
				return;
			}
			Matcher matcher = PRODUCT_URI.matcher(notification.uri());
			if (!matcher.matches()) {
				continue;
			}
			String change = changeByProduct.get(Long.parseLong(matcher.group(1)));
			if (change != null) {
				arrivals(change.substring(0, 1), receiver).arrived(Integer.parseInt(change.substring(1)),
						HarnessFigures.nanos(notification.receivedAt()));
			}
		}
	}

	// The sample: a token, products, changes.

	private String token() throws Exception {
		String credentials = Base64.getEncoder().encodeToString("mcp-full:mcp-full-secret".getBytes());
		HttpRequest request = HttpRequest.newBuilder(this.sample.base().resolve("/oauth2/token"))
			.header("Authorization", "Basic " + credentials)
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers
				.ofString("grant_type=client_credentials&scope=catalog:read%20catalog:write"))
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		Matcher matcher = Pattern.compile("\"access_token\":\"([^\"]+)\"").matcher(response.body());
		if (response.statusCode() != 200 || !matcher.find()) {
			throw new IllegalStateException("No token: " + response.statusCode() + " " + response.body());
		}
		return matcher.group(1);
	}

	private long[] createProducts(int n) throws Exception {
		long[] ids = new long[n];
		Pattern id = Pattern.compile("\"id\":(\\d+)");
		for (int i = 0; i < n; i++) {
			HttpResponse<String> response = rest("POST", "/api/products", "{\"name\":\"seed-" + i + "\",\"price\":1}");
			Matcher matcher = id.matcher(response.body());
			if (response.statusCode() / 100 != 2 || !matcher.find()) {
				throw new IllegalStateException("Could not create a product: " + response.statusCode());
			}
			ids[i] = Long.parseLong(matcher.group(1));
		}
		return ids;
	}

	private void change(long product, String name) throws Exception {
		HttpResponse<String> response = rest("PUT", "/api/products/" + product,
				"{\"name\":\"bench-" + name + "\",\"price\":100}");
		if (response.statusCode() != 200) {
			throw new IllegalStateException("PUT of product " + product + ": " + response.statusCode());
		}
	}

	private HttpResponse<String> rest(String method, String path, String body) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(this.sample.base().resolve(path))
			.header("Authorization", "Bearer " + this.token)
			.header("Content-Type", "application/json")
			.method(method, HttpRequest.BodyPublishers.ofString(body))
			.timeout(Duration.ofSeconds(30))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest.Builder mcp(String method, String params) {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":{" + params + "," + META
				+ "}}";
		return HttpRequest.newBuilder(this.sample.base().resolve("/mcp"))
			.header("Authorization", "Bearer " + this.token)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", method)
			.POST(HttpRequest.BodyPublishers.ofString(body));
	}

	// Webhooks: the receiver and the subscriptions.

	private void subscribeWebhook(int k) throws Exception {
		byte[] key = new byte[32];
		Arrays.fill(key, (byte) (k + 1));
		String secret = "whsec_" + Base64.getEncoder().encodeToString(key);
		String url = this.receiver.url("/hook/" + k);
		// Distinct arguments make distinct subscriptions; every one matches every change.
		String params = "\"name\":\"" + TYPE + "\",\"arguments\":{\"minPrice\":" + k + "},"
				+ "\"delivery\":{\"mode\":\"webhook\",\"url\":\"" + url + "\",\"secret\":\"" + secret + "\"},"
				+ "\"cursor\":null";
		HttpResponse<String> response = this.http.send(mcp("events/subscribe", params).build(),
				HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200 || !response.body().contains("\"refreshBefore\"")) {
			throw new IllegalStateException("events/subscribe: " + response.statusCode() + " " + response.body());
		}
	}

	// Push: one events/stream, read as SSE.

	private PushStream openPush(String receiver) throws Exception {
		HttpResponse<Stream<String>> response = this.http.send(
				mcp("events/stream", "\"name\":\"" + TYPE + "\",\"arguments\":{}").build(),
				HttpResponse.BodyHandlers.ofLines());
		String type = response.headers().firstValue("Content-Type").orElse("");
		if (response.statusCode() != 200 || !type.startsWith("text/event-stream")) {
			String body = String.join("\n", response.body().toList());
			response.body().close();
			return new PushStream(null, "refused: " + response.statusCode() + " " + body);
		}
		Stream<String> lines = response.body();
		daemon(receiver + "-reader", () -> {
			try {
				lines.forEach((line) -> {
					if (line.startsWith("data:") && line.contains("notifications/events/event")) {
						arrived(receiver, line, now());
					}
				});
			}
			catch (RuntimeException ex) {
				// Closed at the end of the run.
			}
		});
		return new PushStream(lines, null);
	}

	private record PushStream(Stream<String> lines, String refused) implements AutoCloseable {

		@Override
		public void close() {
			if (this.lines != null) {
				this.lines.close();
			}
		}

	}

	private static Thread daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	private void stop() {
		if (this.sample != null) {
			this.sample.close();
		}
		if (this.receiver != null) {
			this.receiver.close();
		}
	}

	/** The first arrival of each change at one receiver. */
	private static final class Arrivals {

		private final AtomicLongArray at;

		private final AtomicInteger count = new AtomicInteger();

		private volatile long last;

		Arrivals(int size) {
			this.at = new AtomicLongArray(size);
		}

		void arrived(int index, long when) {
			if (index < this.at.length() && this.at.compareAndSet(index, 0, when)) {
				this.count.incrementAndGet();
				this.last = Math.max(this.last, when);
			}
		}

		long at(int index) {
			return this.at.get(index);
		}

		int count() {
			return this.count.get();
		}

		long last() {
			return this.last;
		}

		void await(int n, Duration within) throws InterruptedException {
			long deadline = System.nanoTime() + within.toNanos();
			while (this.count.get() < n && System.nanoTime() < deadline) {
				Thread.sleep(20);
			}
		}

	}

	// Figures.

	private static long now() {
		return HarnessFigures.nanos(Instant.now());
	}

	private static Map<String, Object> percentiles(long[] values, int count) {
		long[] sorted = Arrays.copyOf(values, count);
		Arrays.sort(sorted);
		Map<String, Object> stats = new LinkedHashMap<>();
		stats.put("p50Ms", HarnessFigures.millis(percentile(sorted, 50)));
		stats.put("p99Ms", HarnessFigures.millis(percentile(sorted, 99)));
		stats.put("maxMs", HarnessFigures.millis((count > 0) ? sorted[count - 1] : 0));
		return stats;
	}

	private static long percentile(long[] sorted, double percentile) {
		if (sorted.length == 0) {
			return 0;
		}
		int rank = (int) Math.ceil(sorted.length * percentile / 100.0);
		return sorted[Math.max(0, rank - 1)];
	}

	private record Options(String jar, int rate, int changes, int burst, int writers, int webhooks, int streams,
			String phases) {

		static Options parse(String[] args) {
			String jar = "sample-app/target/sample-app-0.1.0-SNAPSHOT.jar";
			int rate = 50;
			int changes = 1000;
			int burst = 3000;
			int writers = 4;
			int webhooks = 4;
			int streams = 4;
			String phases = "latency,burst";
			for (int i = 0; i < args.length; i++) {
				String value = (i + 1 < args.length) ? args[i + 1] : null;
				switch (args[i]) {
					case "--jar" -> jar = value;
					case "--rate" -> rate = Integer.parseInt(value);
					case "--changes" -> changes = Integer.parseInt(value);
					case "--burst" -> burst = Integer.parseInt(value);
					case "--writers" -> writers = Integer.parseInt(value);
					case "--webhooks" -> webhooks = Integer.parseInt(value);
					case "--streams" -> streams = Integer.parseInt(value);
					case "--phases" -> phases = value;
					case "--help" -> {
						return null;
					}
					default -> throw new IllegalArgumentException("Unknown option " + args[i] + "\n" + USAGE);
				}
				i++;
			}
			if (rate < 1 || changes < 1 || burst < 1 || writers < 1 || webhooks < 1 || webhooks > 99 || streams < 1) {
				throw new IllegalArgumentException(
						"--rate, --changes, --burst, --writers and --streams must be >= 1, --webhooks 1..99\n" + USAGE);
			}
			return new Options(jar, rate, changes, burst, writers, webhooks, streams, phases);
		}

	}

}
