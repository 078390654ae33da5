package io.github.mcpsubscriptions.benchmarks.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One subscriber of the load: sets itself up in the protocol of its era, then reads its SSE
 * stream asynchronously (the JDK client's line subscriber: no thread per connection),
 * recording the latency of each {@code notifications/resources/updated} by the number at
 * the end of its {@code uri}.
 */
final class SseSubscriber implements Flow.Subscriber<String> {

	static final String VERSION_2025 = "2025-11-25";

	static final String VERSION_2026 = "2026-07-28";

	static final String ACCEPT_BOTH = "application/json, text/event-stream";

	/** Shared by all subscribers of a run. */
	record Context(HttpClient http, URI endpoint, LatencyStats stats, long[] publishedAt, AtomicLong streamErrors,
			AtomicLong streamsEnded) {
	}

	private final Context context;

	private final int number;

	private final CompletableFuture<Void> ready = new CompletableFuture<>();

	private volatile Flow.Subscription subscription;

	private volatile boolean closing;

	private volatile String sessionId;

	SseSubscriber(Context context, int number) {
		this.context = context;
		this.number = number;
	}

	CompletableFuture<Void> ready() {
		return this.ready;
	}

	String sessionId() {
		return this.sessionId;
	}

	/**
	 * 2025 era: initialize, notifications/initialized, resources/subscribe per URI (all
	 * blocking, on the caller's thread), then the GET stream (asynchronous). Ready when the
	 * stream's headers arrive: what is published before the stream attaches waits in the
	 * outbox. Without a stream, ready once subscribed.
	 */
	void open2025(List<String> uris, boolean openStream) throws Exception {
		HttpResponse<String> init = post(null,
				"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
						+ VERSION_2025 + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"load-harness\",\"version\":\"1\"}}}");
		String session = init.headers().firstValue("Mcp-Session-Id").orElse(null);
		if (init.statusCode() != 200 || session == null) {
			throw new IllegalStateException("initialize: HTTP " + init.statusCode() + " " + abbreviate(init.body()));
		}
		this.sessionId = session;
		HttpResponse<String> initialized = post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
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
		HttpRequest get = HttpRequest.newBuilder(this.context.endpoint())
			.GET()
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", session)
			.header("MCP-Protocol-Version", VERSION_2025)
			.build();
		stream(get, true);
	}

	/**
	 * 2026 era: one {@code subscriptions/listen} POST whose response is the stream. Ready
	 * when {@code notifications/subscriptions/acknowledged} arrives.
	 */
	void open2026(List<String> uris) {
		StringBuilder list = new StringBuilder();
		for (String uri : uris) {
			list.append(list.length() == 0 ? "" : ",").append('"').append(uri).append('"');
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
		stream(HttpRequest.newBuilder(this.context.endpoint()).GET().header("Accept", "text/event-stream").build(),
				true);
	}

	private void stream(HttpRequest request, boolean readyOnHeaders) {
		HttpResponse.BodyHandler<Void> handler = (info) -> {
			if (info.statusCode() != 200) {
				this.ready.completeExceptionally(new IllegalStateException("stream: HTTP " + info.statusCode()));
				return HttpResponse.BodySubscribers.discarding();
			}
			if (readyOnHeaders) {
				this.ready.complete(null);
			}
			return HttpResponse.BodySubscribers.fromLineSubscriber(this);
		};
		this.context.http().sendAsync(request, handler).whenComplete((response, ex) -> {
			if (!this.ready.isDone()) {
				this.ready.completeExceptionally(
						(ex != null) ? ex : new IllegalStateException("stream ended before it was ready"));
			}
		});
	}

	/** Delete the 2025-era session (for a server the harness did not start). */
	void deleteSession() {
		String session = this.sessionId;
		if (session == null) {
			return;
		}
		try {
			this.context.http()
				.send(HttpRequest.newBuilder(this.context.endpoint())
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
		HttpRequest.Builder builder = HttpRequest.newBuilder(this.context.endpoint())
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
		Flow.Subscription current = this.subscription;
		if (current != null) {
			current.cancel();
		}
	}

	@Override
	public void onSubscribe(Flow.Subscription subscription) {
		this.subscription = subscription;
		if (this.closing) {
			subscription.cancel();
			return;
		}
		subscription.request(Long.MAX_VALUE);
	}

	@Override
	public void onNext(String line) {
		if (!line.startsWith("data:")) {
			return;
		}
		long now = System.nanoTime();
		String data = line.substring(line.startsWith("data: ") ? 6 : 5);
		if (data.contains("\"notifications/resources/updated\"")) {
			long n = resourceNumber(data);
			long[] published = this.context.publishedAt();
			long at = (n >= 0 && n < published.length) ? published[(int) n] : 0;
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

	@Override
	public void onError(Throwable throwable) {
		if (!this.closing) {
			this.context.streamErrors().incrementAndGet();
		}
		this.ready.completeExceptionally(throwable);
	}

	@Override
	public void onComplete() {
		if (!this.closing) {
			this.context.streamsEnded().incrementAndGet();
		}
		this.ready.completeExceptionally(new IllegalStateException("stream ended"));
	}

}
