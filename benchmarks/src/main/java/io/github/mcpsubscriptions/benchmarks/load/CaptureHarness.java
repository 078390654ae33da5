package io.github.mcpsubscriptions.benchmarks.load;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.mcpsubscriptions.tester.McpNotification;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;

/**
 * Measures the PostgreSQL change capture (#27) end to end, with the sample application in
 * its {@code postgres} profile, started from its jar on a free loopback port, on a schema
 * of its own ({@code currentSchema}, created before and dropped after, so the machine's
 * {@code product} table is left alone). Three measurements, in this order:
 * <ol>
 * <li><b>latency</b>: a 2026-era listen stream on {@code catalog://products}; a writer on
 * its own connection commits single-row updates of distinct products at a steady rate;
 * each notification's receive time minus the time its commit returned to the writer (one
 * JVM, one clock), as p50, p99 and maximum;</li>
 * <li><b>burst</b>: one transaction updates {@code --burst} rows; the time from its
 * commit until the capture has published them all (the node's
 * {@code mcp.capture.changes}, polled every 10 ms) and until the subscriber has received
 * them all, as changes per second. The rows were inserted the same way before (one
 * transaction), which gives the same figure for inserts with no subscriber;</li>
 * <li><b>commits</b>: {@code --writers} connections commit {@code --burst} single-row
 * updates as fast as they can; captured changes per second when each change is a
 * transaction;</li>
 * <li><b>cost</b>: single-row updates in a loop on one connection (autocommit), on the
 * captured table, on an identical table without the trigger, on one with a copy of the
 * trigger that does not call {@code pg_notify} (writing to a change table nobody reads),
 * and on one with that copy as an ordinary function (no {@code security definer}, no
 * {@code search_path} of its own), in blocks whose order changes every round, with the
 * capture running; updates per second of each and the ratios to the table without trigger
 * per round, with {@code synchronous_commit} on (each commit waits for the disk) and off
 * (the trigger's own work shows).</li>
 * </ol>
 * A table on standard error, one JSON line on standard output. Loopback only; it stops
 * the process it started and drops its schema, also on failure.
 */
public final class CaptureHarness {

	private static final long BASE_ID = 1_000_000;

	private final Options options;

	private final String schema = "mcp_capture_bench";

	private SampleProcess sample;

	private URI base;

	private CaptureHarness(Options options) {
		this.options = options;
	}

	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		if (options == null) {
			System.err.println(USAGE);
			return;
		}
		CaptureHarness harness = new CaptureHarness(options);
		Map<String, Object> result;
		try {
			result = harness.run();
		}
		finally {
			harness.stop();
		}
		System.out.println(HarnessFigures.json(result));
	}

	private static final String USAGE = """
			CaptureHarness: the PostgreSQL change capture of the sample's "postgres" profile, measured.
			  --jar PATH            the sample's executable jar (default sample-app/target/sample-app-0.1.0-SNAPSHOT.jar)
			  --jdbc URL            the PostgreSQL (default jdbc:postgresql://127.0.0.1:5432/test, user postgres, no password)
			  --rate N              latency: updates per second (default 100)
			  --updates N           latency: updates, each of another product (default 2000)
			  --burst N             burst: rows in one transaction; commits: single-row transactions (default 20000)
			  --writers N           commits: connections committing at once (default 4)
			  --cost-updates N      cost: updates per table and round (default 3000)
			  --cost-rounds N       cost: rounds (default 7)
			  --cost-commit LIST    cost: synchronous_commit of the writer, on and/or off (default on,off)
			  --phases LIST         latency,burst,commits,cost (default all)
			  --help                this text""";

	private Map<String, Object> run() throws Exception {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("cores", Runtime.getRuntime().availableProcessors());
		result.put("loadAverageAtStart", HarnessFigures.loadAverage());
		int rows = Math.max(this.options.updates, this.options.burst);
		sql("drop schema if exists " + this.schema + " cascade");
		sql("create schema " + this.schema);
		startSample();
		// The rows the measurements change, in one transaction: the insert burst.
		double before = captured();
		Instant committed = commit(
				"insert into " + this.schema + ".product (id, name, price) select g, 'bench-' || g, 1"
						+ " from generate_series(" + BASE_ID + ", " + (BASE_ID + rows - 1) + ") g");
		Instant capturedAll = awaitCaptured(before + rows, Duration.ofMinutes(3));
		result.put("insertBurst",
				Map.of("rows", rows, "capturedPerSecond", perSecond(rows, Duration.between(committed, capturedAll))));
		List<String> phases = Arrays.asList(this.options.phases.split(","));
		if (phases.contains("latency")) {
			result.put("latency", latency());
		}
		if (phases.contains("burst")) {
			result.put("burst", burst());
		}
		if (phases.contains("commits")) {
			result.put("commits", commits());
		}
		if (phases.contains("cost")) {
			result.put("cost", cost(rows));
		}
		result.put("captureLag", meter("mcp.capture.lag"));
		result.put("loadAverageAtEnd", HarnessFigures.loadAverage());
		return result;
	}

	private Map<String, Object> latency() throws Exception {
		int n = this.options.updates;
		long[] committedAt = new long[n];
		long[] receivedAt = new long[n];
		try (McpSubscription products = tester().listen("catalog://products");
				Connection connection = connect();
				PreparedStatement update = connection
					.prepareStatement("update " + this.schema + ".product set price = price + 1 where id = ?")) {
			long period = 1_000_000_000L / this.options.rate;
			long start = System.nanoTime();
			for (int i = 0; i < n; i++) {
				long due = start + i * period;
				long wait = due - System.nanoTime();
				if (wait > 0) {
					LockSupport.parkNanos(wait);
				}
				update.setLong(1, BASE_ID + i);
				update.executeUpdate();
				committedAt[i] = HarnessFigures.nanos(Instant.now());
			}
			double seconds = (System.nanoTime() - start) / 1e9;
			int received = drain(products, n, (index, at) -> receivedAt[index] = at);
			long[] latencies = new long[received];
			int k = 0;
			int missing = 0;
			for (int i = 0; i < n; i++) {
				if (receivedAt[i] == 0) {
					missing++;
				}
				else {
					latencies[k++] = receivedAt[i] - committedAt[i];
				}
			}
			Arrays.sort(latencies, 0, k);
			Map<String, Object> figures = new LinkedHashMap<>();
			figures.put("updates", n);
			figures.put("offeredPerSecond", this.options.rate);
			figures.put("committedPerSecond", HarnessFigures.round(n / seconds));
			figures.put("received", k);
			figures.put("missing", missing);
			figures.put("p50Ms", HarnessFigures.millis(percentile(latencies, k, 50)));
			figures.put("p99Ms", HarnessFigures.millis(percentile(latencies, k, 99)));
			figures.put("maxMs", HarnessFigures.millis((k > 0) ? latencies[k - 1] : 0));
			return figures;
		}
	}

	private Map<String, Object> burst() throws Exception {
		int n = this.options.burst;
		long[] receivedAt = new long[n];
		try (McpSubscription products = tester().listen("catalog://products")) {
			double before = captured();
			Instant committed = commit("update " + this.schema + ".product set price = price + 1 where id between "
					+ BASE_ID + " and " + (BASE_ID + n - 1));
			Instant capturedAll = awaitCaptured(before + n, Duration.ofMinutes(3));
			int received = drain(products, n, (index, at) -> receivedAt[index] = at);
			long last = Arrays.stream(receivedAt).max().orElse(0);
			Map<String, Object> figures = new LinkedHashMap<>();
			figures.put("rows", n);
			figures.put("capturedPerSecond", perSecond(n, Duration.between(committed, capturedAll)));
			figures.put("received", received);
			figures.put("deliveredPerSecond",
					(last > 0) ? HarnessFigures.round(received / ((last - HarnessFigures.nanos(committed)) / 1e9)) : 0);
			figures.put("commitToLastCapturedMs", Duration.between(committed, capturedAll).toMillis());
			figures.put("commitToLastReceivedMs",
					(last > 0) ? (last - HarnessFigures.nanos(committed)) / 1_000_000 : -1);
			return figures;
		}
	}

	/**
	 * {@code --writers} connections commit {@code --burst} single-row updates between
	 * them as fast as they can ({@code synchronous_commit=off}, so that the writers, not
	 * the disk, set the pace): captured changes per second while every change is a
	 * transaction of its own.
	 */
	private Map<String, Object> commits() throws Exception {
		int n = this.options.burst;
		int writers = this.options.writers;
		double before = captured();
		long[] lastCommit = new long[writers];
		List<Thread> threads = new ArrayList<>();
		List<Exception> failures = new CopyOnWriteArrayList<>();
		CountDownLatch go = new CountDownLatch(1);
		for (int w = 0; w < writers; w++) {
			int writer = w;
			Thread thread = new Thread(() -> {
				try (Connection connection = connect();
						PreparedStatement update = connection.prepareStatement(
								"update " + this.schema + ".product set price = price + 1 where id = ?")) {
					try (Statement statement = connection.createStatement()) {
						statement.execute("set synchronous_commit = off");
					}
					go.await();
					for (int i = writer; i < n; i += writers) {
						update.setLong(1, BASE_ID + i);
						update.executeUpdate();
					}
					lastCommit[writer] = HarnessFigures.nanos(Instant.now());
				}
				catch (Exception ex) {
					failures.add(ex);
				}
			});
			thread.start();
			threads.add(thread);
		}
		Instant start = Instant.now();
		go.countDown();
		for (Thread thread : threads) {
			thread.join();
		}
		if (!failures.isEmpty()) {
			throw failures.get(0);
		}
		long committed = Arrays.stream(lastCommit).max().orElse(0);
		Instant capturedAll = awaitCaptured(before + n, Duration.ofMinutes(3));
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("commits", n);
		figures.put("writers", writers);
		figures.put("committedPerSecond", HarnessFigures.round(n / ((committed - HarnessFigures.nanos(start)) / 1e9)));
		figures.put("capturedPerSecond", perSecond(n, Duration.between(start, capturedAll)));
		figures.put("lastCommitToLastCapturedMs", (HarnessFigures.nanos(capturedAll) - committed) / 1_000_000);
		return figures;
	}

	private Map<String, Object> cost(int rows) throws Exception {
		int ids = Math.min(rows, 1000);
		String schema = this.schema;
		for (String table : List.of("product_plain", "product_nonotify", "product_invoker")) {
			sql("create table " + schema + "." + table + " (like " + schema + ".product including all)");
			sql("insert into " + schema + "." + table + " select * from " + schema + ".product where id between "
					+ BASE_ID + " and " + (BASE_ID + ids - 1));
		}
		// The capture's trigger function as installed, writing to a table of its own and
		// without
		// pg_notify: what the row trigger costs apart from waking the reader.
		String function;
		try (Connection connection = connect();
				Statement statement = connection.createStatement();
				ResultSet result = statement
					.executeQuery("select pg_get_functiondef('" + schema + ".mcp_change_capture()'::regprocedure)")) {
			result.next();
			function = result.getString(1);
		}
		sql("create table " + schema + ".mcp_change_bench (like " + schema + ".mcp_change including all)");
		sql(function.replace(schema + ".mcp_change_capture(", schema + ".mcp_bench_capture(")
			.replace("insert into " + schema + ".mcp_change ", "insert into " + schema + ".mcp_change_bench ")
			.replaceAll("perform pg_notify\\([^;]*\\);", ""));
		sql("create trigger mcp_bench_capture after insert or update or delete on " + schema
				+ ".product_nonotify for each row execute function " + schema + ".mcp_bench_capture('id')");
		// The same again as an ordinary function (no security definer, no search_path of
		// its
		// own): what those two clauses cost.
		sql(function.replace(schema + ".mcp_change_capture(", schema + ".mcp_bench_invoker(")
			.replace("insert into " + schema + ".mcp_change ", "insert into " + schema + ".mcp_change_bench ")
			.replaceAll("perform pg_notify\\([^;]*\\);", "")
			.replaceAll("(?m)^ SECURITY DEFINER\\n", "")
			.replaceAll("(?m)^ SET search_path[^\\n]*\\n", ""));
		sql("create trigger mcp_bench_invoker after insert or update or delete on " + schema
				+ ".product_invoker for each row execute function " + schema + ".mcp_bench_invoker('id')");
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("updatesPerBlock", this.options.costUpdates);
		for (String commit : this.options.costCommit.split(",")) {
			figures.put("synchronousCommit-" + commit, cost(ids, commit));
		}
		return figures;
	}

	/** Updates of one table in a row in the cost measurement. */
	private static final int COST_SLICE = 50;

	/**
	 * The tables of the cost measurement: captured; the capture's trigger without NOTIFY;
	 * the same as an ordinary function; no trigger.
	 */
	private static final List<String> COST_TABLES = List.of("product", "product_nonotify", "product_invoker",
			"product_plain");

	private Map<String, Object> cost(int ids, String synchronousCommit) throws Exception {
		Map<String, List<Double>> rates = new LinkedHashMap<>();
		COST_TABLES.forEach((table) -> rates.put(table, new ArrayList<>()));
		Map<String, List<Double>> ratios = new LinkedHashMap<>();
		try (Connection connection = connect()) {
			try (Statement statement = connection.createStatement()) {
				statement.execute("set synchronous_commit = " + ("off".equals(synchronousCommit) ? "off" : "on"));
			}
			for (String table : COST_TABLES) {
				// Warm-up of each statement and table.
				updates(connection, table, ids, 500);
			}
			for (int round = 0; round < this.options.costRounds; round++) {
				// Slices of 50 updates per table in turn, in an order that changes every
				// slice:
				// a burst of other load on the machine hits the three tables alike.
				Map<String, Long> nanos = new LinkedHashMap<>();
				COST_TABLES.forEach((table) -> nanos.put(table, 0L));
				int slices = Math.max(1, this.options.costUpdates / COST_SLICE);
				for (int slice = 0; slice < slices; slice++) {
					List<String> order = new ArrayList<>(COST_TABLES);
					Collections.rotate(order, slice);
					if ((slice / COST_TABLES.size()) % 2 == 1) {
						Collections.reverse(order);
					}
					for (String table : order) {
						long start = System.nanoTime();
						updates(connection, table, ids, COST_SLICE, slice * COST_SLICE);
						nanos.merge(table, System.nanoTime() - start, Long::sum);
					}
				}
				Map<String, Double> rate = new LinkedHashMap<>();
				nanos.forEach((table, spent) -> rate.put(table, slices * COST_SLICE / (spent / 1e9)));
				StringBuilder line = new StringBuilder();
				for (String table : COST_TABLES) {
					rates.get(table).add(HarnessFigures.round(rate.get(table)));
					line.append(String.format(Locale.ROOT, " %s %.0f/s", table, rate.get(table)));
				}
				for (String table : COST_TABLES.subList(0, 3)) {
					ratios.computeIfAbsent(table + "/product_plain", (key) -> new ArrayList<>())
						.add(Math.round(rate.get(table) / rate.get("product_plain") * 1000) / 1000.0);
				}
				System.err.printf(Locale.ROOT, "cost (synchronous_commit %s) round %d:%s%n", synchronousCommit,
						round + 1, line);
			}
		}
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("updatesPerSecond", rates);
		ratios.forEach((name, values) -> {
			List<Double> sorted = new ArrayList<>(values);
			sorted.sort(null);
			Map<String, Object> ratio = new LinkedHashMap<>();
			ratio.put("all", values);
			ratio.put("median", sorted.get(sorted.size() / 2));
			ratio.put("min", sorted.get(0));
			ratio.put("max", sorted.get(sorted.size() - 1));
			figures.put(name, ratio);
		});
		return figures;
	}

	private double updates(Connection connection, String table, int ids, int count) throws SQLException {
		long start = System.nanoTime();
		updates(connection, table, ids, count, 0);
		return count / ((System.nanoTime() - start) / 1e9);
	}

	private void updates(Connection connection, String table, int ids, int count, int from) throws SQLException {
		try (PreparedStatement update = connection
			.prepareStatement("update " + this.schema + "." + table + " set price = price + 1 where id = ?")) {
			for (int i = from; i < from + count; i++) {
				update.setLong(1, BASE_ID + (i % ids));
				update.executeUpdate();
			}
		}
	}

	interface Receipt {

		void received(int index, long atNanos);

	}

	/**
	 * Takes the notifications of products {@code BASE_ID} to {@code BASE_ID + n - 1}
	 * until each has come once or none came for 30 s.
	 */
	private static int drain(McpSubscription subscription, int n, Receipt receipt) {
		boolean[] seen = new boolean[n];
		int received = 0;
		Pattern product = Pattern.compile("catalog://products/(\\d+)");
		while (received < n) {
			McpNotification notification;
			try {
				notification = subscription.awaitNotification(Duration.ofSeconds(30));
			}
			catch (AssertionError ex) {
				System.err.println("No notification for 30 s; " + (n - received) + " of " + n + " missing");
				break;
			}
			Matcher matcher = product.matcher(notification.uri());
			if (!matcher.matches()) {
				continue;
			}
			long index = Long.parseLong(matcher.group(1)) - BASE_ID;
			if (index >= 0 && index < n && !seen[(int) index]) {
				seen[(int) index] = true;
				receipt.received((int) index, HarnessFigures.nanos(notification.receivedAt()));
				received++;
			}
		}
		return received;
	}

	private McpTester tester() {
		return McpTester.forUrl(this.base.resolve("/mcp").toString()).withTimeout(Duration.ofSeconds(30));
	}

	private void startSample() throws Exception {
		String url = this.options.jdbc + (this.options.jdbc.contains("?") ? "&" : "?") + "currentSchema=" + this.schema;
		this.sample = SampleProcess.start(this.options.jar, "capture-harness",
				List.of("--spring.profiles.active=postgres", "--spring.datasource.url=" + url,
						// The burst's notifications all wait for the one subscriber at
						// once.
						"--mcp.notifications.outbox-capacity=" + (this.options.burst + 1000)));
		this.base = this.sample.base();
	}

	private void stop() {
		if (this.sample != null) {
			this.sample.close();
		}
		try {
			sql("drop schema if exists " + this.schema + " cascade");
		}
		catch (SQLException ex) {
			System.err.println("Could not drop schema " + this.schema + ": " + ex.getMessage());
		}
	}

	/** The statistics of a meter of the sample, from its Actuator. */
	private Map<String, Double> meter(String name) throws Exception {
		return this.sample.meter(name, null);
	}

	private double captured() throws Exception {
		return meter("mcp.capture.changes").getOrDefault("COUNT", 0.0);
	}

	private Instant awaitCaptured(double count, Duration within) throws Exception {
		long deadline = System.nanoTime() + within.toNanos();
		while (System.nanoTime() < deadline) {
			if (captured() >= count) {
				return Instant.now();
			}
			Thread.sleep(10);
		}
		throw new IllegalStateException(
				"The capture did not count " + count + " changes within " + within + " (it counts " + captured() + ")");
	}

	private Connection connect() throws SQLException {
		Connection connection = DriverManager.getConnection(this.options.jdbc, "postgres", "");
		connection.setAutoCommit(true);
		return connection;
	}

	private void sql(String sql) throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	/** Runs a statement in its own transaction; when its commit returned. */
	private Instant commit(String sql) throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
			return Instant.now();
		}
	}

	private static long percentile(long[] sorted, int count, double percentile) {
		if (count == 0) {
			return 0;
		}
		int rank = (int) Math.ceil(count * percentile / 100.0);
		return sorted[Math.max(0, rank - 1)];
	}

	private static double perSecond(int count, Duration duration) {
		return HarnessFigures.round(count / (duration.toNanos() / 1e9));
	}

	record Options(String jar, String jdbc, int rate, int updates, int burst, int writers, int costUpdates,
			int costRounds, String costCommit, String phases) {

		static Options parse(String[] args) {
			Map<String, String> values = new LinkedHashMap<>();
			for (int i = 0; i < args.length; i++) {
				if (args[i].equals("--help")) {
					return null;
				}
				if (!args[i].startsWith("--") || i + 1 == args.length) {
					throw new IllegalArgumentException("Unknown or incomplete option " + args[i] + "; see --help");
				}
				values.put(args[i].substring(2), args[++i]);
			}
			Options options = new Options(values.getOrDefault("jar", "sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"),
					values.getOrDefault("jdbc", "jdbc:postgresql://127.0.0.1:5432/test"),
					Integer.parseInt(values.getOrDefault("rate", "100")),
					Integer.parseInt(values.getOrDefault("updates", "2000")),
					Integer.parseInt(values.getOrDefault("burst", "20000")),
					Integer.parseInt(values.getOrDefault("writers", "4")),
					Integer.parseInt(values.getOrDefault("cost-updates", "3000")),
					Integer.parseInt(values.getOrDefault("cost-rounds", "7")),
					values.getOrDefault("cost-commit", "on,off"),
					values.getOrDefault("phases", "latency,burst,commits,cost"));
			String host = URI.create(options.jdbc.substring("jdbc:".length())).getHost();
			if (!"127.0.0.1".equals(host) && !"localhost".equals(host)) {
				throw new IllegalArgumentException("--jdbc must name a PostgreSQL on loopback");
			}
			if (options.rate < 1 || options.rate > 5000 || options.updates < 1 || options.burst < 1
					|| options.writers < 1 || options.writers > 32 || options.updates > 200_000
					|| options.burst > 200_000) {
				throw new IllegalArgumentException("--rate 1..5000, --updates and --burst 1..200000, --writers 1..32");
			}
			return options;
		}

	}

}
