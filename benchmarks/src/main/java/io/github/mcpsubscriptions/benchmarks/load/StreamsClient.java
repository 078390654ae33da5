package io.github.mcpsubscriptions.benchmarks.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One client process of the many-streams benchmark ({@code benchmarks/streams.sh}): holds
 * N streams of one era on one selector thread (2025: N sessions, each subscribed to
 * {@code catalog://products/{id}}, with its GET stream; 2026: N
 * {@code subscriptions/listen} streams on that template), and records when each stream
 * receives the one change the driver publishes. It talks to the script through files in a
 * directory: {@code <era>.ready} once its streams are open, {@code stop} to end,
 * {@code t0} (the change's publication, epoch ms), {@code <era>.result} at the end.
 * <p>
 * The {@code --probe} mode is the driver: request latency ({@code ping},
 * {@code resources/read}), the change (writing {@code t0}), and the ceiling (new streams
 * until one is refused, then a {@code resources/read} on a new connection).
 */
public final class StreamsClient {

	private static final String TEMPLATE = "catalog://products/{id}";

	private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"streams\",\"version\":\"1\"},"
			+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";

	private static final byte[] UPDATED = "notifications/resources/updated".getBytes(StandardCharsets.US_ASCII);

	private static final Pattern SESSION = Pattern.compile("(?i)mcp-session-id:\\s*(\\S+)");

	private StreamsClient() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = new HashMap<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
		}
		int port = Integer.parseInt(options.get("port"));
		Path dir = Path.of(options.get("dir"));
		if (options.containsKey("probe")) {
			probe(port, dir, Integer.parseInt(options.getOrDefault("requests", "500")));
			return;
		}
		if (options.containsKey("ceiling")) {
			String result = ceiling(port, Integer.parseInt(options.getOrDefault("max-extra", "400")));
			Files.writeString(dir.resolve("ceiling.result"), result);
			log(result.trim());
			return;
		}
		String era = options.get("era");
		int streams = Integer.parseInt(options.get("streams"));
		long deadline = System.nanoTime()
				+ Duration.ofSeconds(Long.parseLong(options.getOrDefault("max-seconds", "900"))).toNanos();
		new Holder(port, dir, era, streams, deadline).run();
	}

	/** The streams of one era, read by one selector thread. */
	private static final class Holder {

		private final int port;

		private final Path dir;

		private final String era;

		private final int count;

		private final long deadline;

		private final long[] receivedAt;

		private final byte[][] tails;

		private final boolean[] open;

		private int lost;

		private int refused;

		Holder(int port, Path dir, String era, int count, long deadline) {
			this.port = port;
			this.dir = dir;
			this.era = era;
			this.count = count;
			this.deadline = deadline;
			this.receivedAt = new long[count];
			this.tails = new byte[count][];
			this.open = new boolean[count];
		}

		void run() throws Exception {
			List<String> requests = requests();
			Selector selector = Selector.open();
			ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
			int opened = 0;
			long started = System.nanoTime();
			for (int i = 0; i < this.count; i++) {
				SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", this.port));
				channel.write(ByteBuffer.wrap(requests.get(i).getBytes(StandardCharsets.UTF_8)));
				channel.configureBlocking(false);
				channel.register(selector, SelectionKey.OP_READ, i);
				this.open[i] = true;
				opened++;
				if ((i & 255) == 255) {
					// Take what has arrived so far, so that socket buffers do not fill.
					drain(selector, buffer, 0);
				}
			}
			log(this.era + ": " + opened + " streams requested in "
					+ Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
			// Until every stream has its first bytes (the acknowledgement or the
			// comment).
			long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (System.nanoTime() < until && firstBytesMissing() > 0) {
				drain(selector, buffer, 200);
			}
			Files.writeString(this.dir.resolve(this.era + ".ready"),
					(this.count - firstBytesMissing() - this.refused) + "\n");
			log(this.era + ": ready, " + (this.count - firstBytesMissing()) + " answered, " + this.refused
					+ " refused");
			Path stop = this.dir.resolve("stop");
			while (!Files.exists(stop) && System.nanoTime() < this.deadline) {
				drain(selector, buffer, 200);
			}
			report();
			selector.close();
		}

		private int firstBytesMissing() {
			int missing = 0;
			for (byte[] tail : this.tails) {
				if (tail == null) {
					missing++;
				}
			}
			return missing;
		}

		private List<String> requests() throws Exception {
			List<String> requests = new ArrayList<>(this.count);
			if (this.era.equals("2026")) {
				for (int i = 0; i < this.count; i++) {
					String body = "{\"jsonrpc\":\"2.0\",\"id\":" + i
							+ ",\"method\":\"subscriptions/listen\",\"params\":{"
							+ "\"notifications\":{\"resourceSubscriptions\":[\"" + TEMPLATE + "\"]}," + META + "}}";
					requests.add(post(body, "subscriptions/listen", null));
				}
				return requests;
			}
			// 2025: sessions set up by a few threads over pooled connections.
			HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
			ExecutorService setup = Executors.newFixedThreadPool(8);
			List<Future<String>> sessions = new ArrayList<>();
			for (int i = 0; i < this.count; i++) {
				sessions.add(setup.submit(() -> session(client)));
			}
			for (Future<String> session : sessions) {
				requests.add("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + this.port + "\r\nAccept: text/event-stream\r\n"
						+ "Mcp-Session-Id: " + session.get() + "\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n");
			}
			setup.shutdown();
			return requests;
		}

		private String session(HttpClient client) throws Exception {
			HttpResponse<String> init = client.send(
					json("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
							+ "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
							+ "\"clientInfo\":{\"name\":\"streams\",\"version\":\"1\"}}}", null),
					HttpResponse.BodyHandlers.ofString());
			String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
			client.send(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", id),
					HttpResponse.BodyHandlers.discarding());
			HttpResponse<String> subscribed = client.send(json("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
					+ "\"resources/subscribe\",\"params\":{\"uri\":\"" + TEMPLATE + "\"}}", id),
					HttpResponse.BodyHandlers.ofString());
			if (subscribed.statusCode() != 200 || subscribed.body().contains("\"error\"")) {
				throw new IllegalStateException("subscribe failed: " + subscribed.body());
			}
			return id;
		}

		private HttpRequest json(String body, String session) {
			HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/mcp"))
				.header("Content-Type", "application/json")
				.header("Accept", "application/json, text/event-stream")
				.POST(HttpRequest.BodyPublishers.ofString(body));
			if (session != null) {
				request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
			}
			return request.build();
		}

		private String post(String body, String method, String extraHeader) {
			return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + this.port + "\r\nContent-Type: application/json\r\n"
					+ "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
					+ "Mcp-Method: " + method + "\r\n" + ((extraHeader != null) ? extraHeader + "\r\n" : "")
					+ "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
		}

		private void drain(Selector selector, ByteBuffer buffer, long timeoutMillis) throws IOException {
			if (((timeoutMillis > 0) ? selector.select(timeoutMillis) : selector.selectNow()) == 0) {
				return;
			}
			Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
			while (keys.hasNext()) {
				SelectionKey key = keys.next();
				keys.remove();
				int index = (Integer) key.attachment();
				SocketChannel channel = (SocketChannel) key.channel();
				int read;
				try {
					buffer.clear();
					read = channel.read(buffer);
				}
				catch (IOException ex) {
					read = -1;
				}
				if (read < 0) {
					if (this.open[index]) {
						this.open[index] = false;
						this.lost++;
					}
					key.cancel();
					channel.close();
					continue;
				}
				buffer.flip();
				byte[] bytes = new byte[buffer.remaining()];
				buffer.get(bytes);
				byte[] tail = this.tails[index];
				if (tail == null && !new String(bytes, 0, Math.min(12, bytes.length), StandardCharsets.US_ASCII)
					.startsWith("HTTP/1.1 200")) {
					if (this.refused++ == 0) {
						log(this.era + ": first refusal: " + new String(bytes, StandardCharsets.UTF_8));
					}
					this.open[index] = false;
				}
				byte[] scanned = (tail == null || tail.length == 0) ? bytes : concat(tail, bytes);
				if (this.receivedAt[index] == 0 && contains(scanned, UPDATED)) {
					this.receivedAt[index] = System.currentTimeMillis();
				}
				this.tails[index] = Arrays.copyOfRange(scanned, Math.max(0, scanned.length - UPDATED.length),
						scanned.length);
			}
		}

		private void report() throws IOException {
			long t0 = Files.exists(this.dir.resolve("t0"))
					? Long.parseLong(Files.readString(this.dir.resolve("t0")).trim()) : 0;
			long[] latencies = Arrays.stream(this.receivedAt)
				.filter((at) -> at != 0)
				.map((at) -> at - t0)
				.sorted()
				.toArray();
			String result = String.format(Locale.ROOT,
					"era=%s streams=%d refused=%d lost=%d received=%d p50=%d p99=%d max=%d%n", this.era, this.count,
					this.refused, this.lost, latencies.length, percentile(latencies, 0.5), percentile(latencies, 0.99),
					(latencies.length > 0) ? latencies[latencies.length - 1] : -1);
			Files.writeString(this.dir.resolve(this.era + ".result"), result);
			log(result.trim());
		}

	}

	/** The driver: request latency, the change, and the ceiling. */
	private static void probe(int port, Path dir, int requests) throws Exception {
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		URI endpoint = URI.create("http://127.0.0.1:" + port + "/mcp");
		long[] ping = new long[requests];
		long[] read = new long[requests];
		// ping is a 2025-era method (a session's), resources/read a stateless 2026 one.
		HttpResponse<String> init = client.send(HttpRequest.newBuilder(endpoint)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
					+ "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
					+ "\"clientInfo\":{\"name\":\"probe\",\"version\":\"1\"}}}"))
			.build(), HttpResponse.BodyHandlers.ofString());
		String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
		HttpRequest pingRequest = HttpRequest.newBuilder(endpoint)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("Mcp-Session-Id", session)
			.header("MCP-Protocol-Version", "2025-11-25")
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"))
			.build();
		for (int i = 0; i < requests; i++) {
			ping[i] = timed(client, pingRequest);
			read[i] = timed(client, stateless(endpoint, "resources/read", "{\"uri\":\"catalog://products/1\"}",
					"catalog://products/1"));
		}
		Arrays.sort(ping);
		Arrays.sort(read);
		StringBuilder out = new StringBuilder();
		out.append(String.format(Locale.ROOT, "ping p50=%.1fms p99=%.1fms max=%.1fms%n", ping[requests / 2] / 1e6,
				ping[(int) (requests * 0.99)] / 1e6, ping[requests - 1] / 1e6));
		out.append(String.format(Locale.ROOT, "read p50=%.1fms p99=%.1fms max=%.1fms%n", read[requests / 2] / 1e6,
				read[(int) (requests * 0.99)] / 1e6, read[requests - 1] / 1e6));
		// The change that every stream subscribes to.
		long t0 = System.currentTimeMillis();
		Files.writeString(dir.resolve("t0"), t0 + "\n");
		HttpResponse<Void> put = client
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/products/1"))
				.header("Content-Type", "application/json")
				.PUT(HttpRequest.BodyPublishers.ofString("{}"))
				.build(), HttpResponse.BodyHandlers.discarding());
		out.append("change published, status " + put.statusCode() + "\n");
		Files.writeString(dir.resolve("probe.result"), out.toString());
		log(out.toString().trim());
	}

	/** Open new listen streams until one is refused, then read on a new connection. */
	static String ceiling(int port, int maxExtra) throws Exception {
		List<SocketChannel> held = new ArrayList<>();
		StringBuilder out = new StringBuilder();
		try {
			for (int i = 0; i < maxExtra; i++) {
				SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
				held.add(channel);
				String body = "{\"jsonrpc\":\"2.0\",\"id\":" + (100000 + i) + ",\"method\":\"subscriptions/listen\","
						+ "\"params\":{\"notifications\":{\"resourceSubscriptions\":[\"" + TEMPLATE + "\"]}," + META
						+ "}}";
				long started = System.nanoTime();
				channel.write(ByteBuffer.wrap(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port
						+ "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
						+ "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: "
						+ body.length() + "\r\n\r\n" + body)
					.getBytes(StandardCharsets.UTF_8)));
				channel.socket().setSoTimeout(10_000);
				ByteBuffer answer = ByteBuffer.allocate(2048);
				channel.read(answer);
				String head = new String(answer.array(), 0, answer.position(), StandardCharsets.UTF_8);
				if (head.startsWith("HTTP/1.1 503")) {
					Matcher retry = Pattern.compile("(?i)retry-after:\\s*(\\d+)").matcher(head);
					out.append(String.format(Locale.ROOT,
							"ceiling: stream %d past the open ones refused 503 in %.1f ms, Retry-After %s%n", i + 1,
							(System.nanoTime() - started) / 1e6, retry.find() ? retry.group(1) : "missing"));
					HttpClient fresh = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
					long readStarted = System.nanoTime();
					HttpResponse<String> read = fresh.send(
							stateless(URI.create("http://127.0.0.1:" + port + "/mcp"), "resources/read",
									"{\"uri\":\"catalog://products/1\"}", "catalog://products/1"),
							HttpResponse.BodyHandlers.ofString());
					out.append(String.format(Locale.ROOT, "ceiling: resources/read on a new connection %d in %.1f ms%n",
							read.statusCode(), (System.nanoTime() - readStarted) / 1e6));
					return out.toString();
				}
			}
			return "ceiling: no refusal within " + maxExtra + " extra streams\n";
		}
		finally {
			for (SocketChannel channel : held) {
				channel.close();
			}
		}
	}

	private static HttpRequest stateless(URI endpoint, String method, String params, String name) {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":"
				+ params.replaceFirst("}$", (params.equals("{}") ? "" : ",") + META + "}") + "}";
		HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", method)
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (name != null) {
			request.header("Mcp-Name", name);
		}
		return request.build();
	}

	private static long timed(HttpClient client, HttpRequest request) throws Exception {
		long started = System.nanoTime();
		HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new IllegalStateException(response.statusCode() + " " + response.body());
		}
		return System.nanoTime() - started;
	}

	private static long percentile(long[] sorted, double p) {
		return (sorted.length == 0) ? -1 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * p))];
	}

	private static boolean contains(byte[] haystack, byte[] needle) {
		outer: for (int i = 0; i <= haystack.length - needle.length; i++) {
			for (int j = 0; j < needle.length; j++) {
				if (haystack[i + j] != needle[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

	private static byte[] concat(byte[] a, byte[] b) {
		byte[] both = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, both, a.length, b.length);
		return both;
	}

	private static void log(String line) {
		System.err.println("[streams] " + line);
	}

}
