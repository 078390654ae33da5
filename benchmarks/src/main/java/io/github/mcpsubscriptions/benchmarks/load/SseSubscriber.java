package io.github.mcpsubscriptions.benchmarks.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * One subscriber of the load: sets itself up in the protocol of its era, then reads its
 * SSE stream asynchronously (the JDK client's line subscriber: no thread per connection),
 * recording the latency of each {@code notifications/resources/updated} by the number at
 * the end of its {@code uri}. For the cluster harness it can also send each request to
 * another node ({@link #route}), count what it received per resource number and per event
 * id (to find losses and duplicates), and reopen its stream elsewhere with
 * {@code Last-Event-ID}.
 */
final class SseSubscriber {

	static final String VERSION_2025 = "2025-11-25";

	static final String VERSION_2026 = "2026-07-28";

	static final String ACCEPT_BOTH = "application/json, text/event-stream";

	/**
	 * How a change names itself in a notification's {@code _meta} (see
	 * {@link #changeNumber}).
	 */
	static final String CHANGE_MARKER = "\"name\":\"change-";

	/**
	 * The {@code _meta} key of a resync notification (NotificationEncoder.RESYNC_META).
	 */
	static final String RESYNC_META = "\"io.github.mcpsubscriptions/resync\"";

	/** Shared by all subscribers of a run. */
	record Context(HttpClient http, URI endpoint, LatencyStats stats, long[] publishedAt, AtomicLong streamErrors,
			AtomicLong streamsEnded, Freshness freshness) {

		Context(HttpClient http, URI endpoint, LatencyStats stats, long[] publishedAt, AtomicLong streamErrors,
				AtomicLong streamsEnded) {
			this(http, endpoint, stats, publishedAt, streamErrors, streamsEnded, null);
		}

	}

	private final Context context;

	private final int number;

	private final CompletableFuture<Void> ready = new CompletableFuture<>();

	private volatile Lines lines;

	private volatile boolean closing;

	private volatile String sessionId;

	/**
	 * The endpoint of the subscriber's request number k (all on one endpoint by default).
	 */
	private IntFunction<URI> route;

	private int requests;

	private volatile URI streamEndpoint;

	/**
	 * Told when the stream ends or fails without {@link #close()} (the cluster harness
	 * reconnects).
	 */
	private volatile Consumer<SseSubscriber> onStreamLost = (subscriber) -> {
	};

	// What arrived, for the loss and duplicate counts (guarded by this).
	private final long[] receivedByNumber;

	private final long[] lastChangeByNumber;

	private final Set<String> eventIds = new HashSet<>();

	private long repeatedEventIds;

	private final BitSet changes = new BitSet();

	private long repeatedChanges;

	private long outOfOrder;

	private long resyncs;

	// The last few notifications, and the first ones after a resume: what a reconnect
	// did.
	private final ArrayDeque<String> recent = new ArrayDeque<>();

	private final List<String> resumeTrace = new ArrayList<>();

	private int resumeTraceRemaining;

	private volatile String lastEventId;

	SseSubscriber(Context context, int number) {
		this(context, number, (k) -> context.endpoint(), 0);
	}

	/**
	 * A subscriber of the given resources.
	 * @param context the run's shared state
	 * @param number this subscriber's number
	 * @param route the endpoint for each request, by its number (0: initialize)
	 * @param countNumbersBelow count received notifications per resource number below
	 * this (0: not at all)
	 */
	SseSubscriber(Context context, int number, IntFunction<URI> route, int countNumbersBelow) {
		this.context = context;
		this.number = number;
		this.route = route;
		this.receivedByNumber = new long[countNumbersBelow];
		this.lastChangeByNumber = new long[countNumbersBelow];
	}

	void onStreamLost(Consumer<SseSubscriber> listener) {
		this.onStreamLost = listener;
	}

	/** The endpoint the stream was last opened on, or null. */
	URI streamEndpoint() {
		return this.streamEndpoint;
	}

	String lastEventId() {
		return this.lastEventId;
	}

	/** Notifications received for resource number n, each event id counted once. */
	synchronized long received(int n) {
		return this.receivedByNumber[n];
	}

	/** Events whose id had arrived on this session before. */
	synchronized long repeatedEventIds() {
		return this.repeatedEventIds;
	}

	/**
	 * The highest change number (see {@link #changeNumber}) received for resource number
	 * n, or 0.
	 */
	synchronized long lastChange(int n) {
		return this.lastChangeByNumber[n];
	}

	/** Notifications of a change this session had been told about already. */
	synchronized long repeatedChanges() {
		return this.repeatedChanges;
	}

	/**
	 * Notifications whose change number was below the last one for their resource:
	 * changes sent at once to different nodes may be published in another order than they
	 * were sent.
	 */
	synchronized long outOfOrder() {
		return this.outOfOrder;
	}

	/** The notifications before the last resume and the first ones after it, or empty. */
	synchronized List<String> resumeTrace() {
		return List.copyOf(this.resumeTrace);
	}

	/** Resync notifications received. */
	synchronized long resyncs() {
		return this.resyncs;
	}

	int number() {
		return this.number;
	}

	CompletableFuture<Void> ready() {
		return this.ready;
	}

	String sessionId() {
		return this.sessionId;
	}

	/**
	 * 2025 era: initialize, notifications/initialized, resources/subscribe per URI (all
	 * blocking, on the caller's thread), then the GET stream (asynchronous). Ready when
	 * the stream's headers arrive: what is published before the stream attaches waits in
	 * the outbox. Without a stream, ready once subscribed.
	 */
	void open2025(List<String> uris, boolean openStream) throws Exception {
		HttpResponse<String> init = post(null,
				"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
						+ VERSION_2025
						+ "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"load-harness\",\"version\":\"1\"}}}");
		String session = init.headers().firstValue("Mcp-Session-Id").orElse(null);
		if (init.statusCode() != 200 || session == null) {
			throw new IllegalStateException("initialize: HTTP " + init.statusCode() + " " + abbreviate(init.body()));
		}
		this.sessionId = session;
		HttpResponse<String> initialized = post(session,
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
		if (initialized.statusCode() != 202) {
			throw new IllegalStateException("notifications/initialized: HTTP " + initialized.statusCode());
		}
		int id = 1;
		for (String uri : uris) {
			HttpResponse<String> subscribed = post(session, "{\"jsonrpc\":\"2.0\",\"id\":" + id++
					+ ",\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"" + uri + "\"}}");
			if (subscribed.statusCode() != 200 || !subscribed.body().contains("\"result\"")) {
				throw new IllegalStateException(
						"resources/subscribe: HTTP " + subscribed.statusCode() + " " + abbreviate(subscribed.body()));
			}
		}
		if (!openStream) {
			this.ready.complete(null);
			return;
		}
		openStream2025(this.route.apply(this.requests++));
	}

	/**
	 * (Re)open the 2025-era GET stream on an endpoint, with {@code Last-Event-ID} when an
	 * event arrived before.
	 * @param endpoint the MCP endpoint of some node
	 * @return completes with the HTTP status of the stream's response (or exceptionally)
	 */
	CompletableFuture<Integer> openStream2025(URI endpoint) {
		HttpRequest.Builder get = HttpRequest.newBuilder(endpoint)
			.GET()
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", this.sessionId)
			.header("MCP-Protocol-Version", VERSION_2025);
		String resumeFrom = this.lastEventId;
		if (resumeFrom != null) {
			get.header("Last-Event-ID", resumeFrom);
			synchronized (this) {
				this.resumeTrace.clear();
				this.resumeTrace.add("last received (event id product:change): " + this.recent);
				this.resumeTrace.add("GET with Last-Event-ID " + resumeFrom + " on " + endpoint);
				this.resumeTraceRemaining = 12;
			}
		}
		this.streamEndpoint = endpoint;
		return stream(get.build(), true);
	}

	/**
	 * 2026 era: one {@code subscriptions/listen} POST whose response is the stream. Ready
	 * when {@code notifications/subscriptions/acknowledged} arrives.
	 */
	void open2026(List<String> uris) {
		StringBuilder list = new StringBuilder();
		for (String uri : uris) {
			list.append((list.length() == 0) ? "" : ",").append('"').append(uri).append('"');
		}
		String body = "{\"jsonrpc\":\"2.0\",\"id\":\"listen-" + this.number
				+ "\",\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":{\"resourceSubscriptions\":["
				+ list + "]},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + VERSION_2026
				+ "\",\"io.modelcontextprotocol/clientInfo\":{\"name\":\"load-harness\",\"version\":\"1\"},"
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
		HttpRequest listen = HttpRequest.newBuilder(this.context.endpoint())
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.header("Content-Type", "application/json")
			.header("Accept", ACCEPT_BOTH)
			.header("MCP-Protocol-Version", VERSION_2026)
			.header("Mcp-Method", "subscriptions/listen")
			.build();
		stream(listen, false);
	}

	/** The raw broadcaster: a plain GET of an SSE stream. Ready on its headers. */
	void openRaw() {
		openRaw(this.context.endpoint());
	}

	/**
	 * The raw broadcaster's stream at an endpoint of its own (one resource number's
	 * events only, say).
	 */
	void openRaw(URI endpoint) {
		stream(HttpRequest.newBuilder(endpoint).GET().header("Accept", "text/event-stream").build(), true);
	}

	private CompletableFuture<Integer> stream(HttpRequest request, boolean readyOnHeaders) {
		CompletableFuture<Integer> status = new CompletableFuture<>();
		HttpResponse.BodyHandler<Void> handler = (info) -> {
			status.complete(info.statusCode());
			if (info.statusCode() != 200) {
				this.ready.completeExceptionally(new IllegalStateException("stream: HTTP " + info.statusCode()));
				return HttpResponse.BodySubscribers.discarding();
			}
			if (readyOnHeaders) {
				this.ready.complete(null);
			}
			Lines current = new Lines();
			this.lines = current;
			return HttpResponse.BodySubscribers.fromLineSubscriber(current);
		};
		this.context.http().sendAsync(request, handler).whenComplete((response, ex) -> {
			if (ex != null) {
				status.completeExceptionally(ex);
			}
			if (!this.ready.isDone()) {
				this.ready.completeExceptionally(
						(ex != null) ? ex : new IllegalStateException("stream ended before it was ready"));
			}
		});
		return status;
	}

	/** Delete the 2025-era session (for a server the harness did not start). */
	void deleteSession() {
		String session = this.sessionId;
		if (session == null) {
			return;
		}
		try {
			this.context.http()
				.send(HttpRequest.newBuilder(this.route.apply(this.requests++))
					.DELETE()
					.timeout(Duration.ofSeconds(5))
					.header("Mcp-Session-Id", session)
					.header("MCP-Protocol-Version", VERSION_2025)
					.build(), HttpResponse.BodyHandlers.discarding());
		}
		catch (Exception ex) {
			// Best effort: the server expires idle sessions anyway.
		}
	}

	private HttpResponse<String> post(String session, String body) throws Exception {
		HttpRequest.Builder builder = HttpRequest.newBuilder(this.route.apply(this.requests++))
			.timeout(Duration.ofSeconds(30))
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.header("Content-Type", "application/json")
			.header("Accept", ACCEPT_BOTH);
		if (session != null) {
			builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", VERSION_2025);
		}
		return this.context.http().send(builder.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String abbreviate(String text) {
		return (text.length() > 200) ? text.substring(0, 200) + "…" : text;
	}

	void close() {
		this.closing = true;
		Lines current = this.lines;
		if (current != null) {
			current.cancel();
		}
	}

	private void onLine(String line, Lines stream) {
		if (line.startsWith("id:")) {
			stream.eventId = line.substring(line.startsWith("id: ") ? 4 : 3);
			return;
		}
		if (line.isEmpty()) {
			stream.eventId = null;
			return;
		}
		if (!line.startsWith("data:")) {
			return;
		}
		long now = System.nanoTime();
		String data = line.substring(line.startsWith("data: ") ? 6 : 5);
		if (data.contains("\"notifications/resources/updated\"")) {
			long n = resourceNumber(data);
			long change = changeNumber(data);
			if (!count(stream.eventId, n, change, data.contains(RESYNC_META))) {
				return;
			}
			Freshness freshness = this.context.freshness();
			if (freshness != null) {
				freshness.arrived(this.number, n, now);
			}
			long[] published = this.context.publishedAt();
			long key = (change >= 0) ? change : n;
			long at = (key >= 0 && key < published.length) ? published[(int) key] : 0;
			if (at == 0) {
				this.context.stats().unmatched();
			}
			else {
				this.context.stats().record(now - at, now);
			}
		}
		else if (data.contains("\"notifications/subscriptions/acknowledged\"")) {
			this.ready.complete(null);
		}
	}

	/**
	 * The change's own number, when the server names it: the sample application puts the
	 * new name in the notification's {@code _meta}, and the cluster harness names each
	 * change {@code change-<number>}.
	 * @return the number, or -1
	 */
	static long changeNumber(String data) {
		int start = data.indexOf(CHANGE_MARKER);
		if (start < 0) {
			return -1;
		}
		int from = start + CHANGE_MARKER.length();
		int end = from;
		while (end < data.length() && end - from < 12 && Character.isDigit(data.charAt(end))) {
			end++;
		}
		return (end > from) ? Long.parseLong(data, from, end, 10) : -1;
	}

	/** The number at the end of the notification's {@code uri}, or -1. */
	static long resourceNumber(String data) {
		int start = data.indexOf("\"uri\":\"");
		if (start < 0) {
			return -1;
		}
		int end = data.indexOf('"', start + 7);
		if (end < 0) {
			return -1;
		}
		int digits = end;
		while (digits > start + 7 && Character.isDigit(data.charAt(digits - 1))) {
			digits--;
		}
		if (digits == end || end - digits > 12) {
			return -1;
		}
		return Long.parseLong(data, digits, end, 10);
	}

	/**
	 * Count an event; false when it is not a change's notification: its id arrived before
	 * (a duplicate, not counted again) or it is a resync.
	 */
	private synchronized boolean count(String eventId, long n, long change, boolean resync) {
		if (eventId != null) {
			if (this.receivedByNumber.length > 0 && !this.eventIds.add(eventId)) {
				this.repeatedEventIds++;
				return false;
			}
			this.lastEventId = eventId;
		}
		if (resync && this.receivedByNumber.length > 0) {
			this.resyncs++;
			return false;
		}
		if (n >= 0 && n < this.receivedByNumber.length) {
			String entry = eventId + " " + n + ":" + change;
			if (this.resumeTraceRemaining > 0) {
				this.resumeTraceRemaining--;
				this.resumeTrace.add(entry);
			}
			this.recent.addLast(entry);
			if (this.recent.size() > 5) {
				this.recent.removeFirst();
			}
			this.receivedByNumber[(int) n]++;
			if (change >= 0) {
				if (this.changes.get((int) change)) {
					this.repeatedChanges++;
					return false;
				}
				this.changes.set((int) change);
				if (change < this.lastChangeByNumber[(int) n]) {
					this.outOfOrder++;
				}
				else {
					this.lastChangeByNumber[(int) n] = change;
				}
			}
		}
		return true;
	}

	private void ended(Lines stream, boolean failed) {
		if (this.closing || this.lines != stream) {
			return;
		}
		(failed ? this.context.streamErrors() : this.context.streamsEnded()).incrementAndGet();
		this.ready.completeExceptionally(new IllegalStateException("stream ended"));
		this.onStreamLost.accept(this);
	}

	/** One opened stream's lines (a reconnect opens another). */
	private final class Lines implements Flow.Subscriber<String> {

		private volatile Flow.Subscription subscription;

		private volatile boolean cancelled;

		/**
		 * The id of the event being read (SSE: the id line comes before the data line).
		 */
		String eventId;

		void cancel() {
			this.cancelled = true;
			Flow.Subscription current = this.subscription;
			if (current != null) {
				current.cancel();
			}
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			this.subscription = subscription;
			if (this.cancelled || SseSubscriber.this.closing) {
				subscription.cancel();
				return;
			}
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(String line) {
			onLine(line, this);
		}

		@Override
		public void onError(Throwable throwable) {
			ended(this, true);
		}

		@Override
		public void onComplete() {
			ended(this, false);
		}

	}

}
