package io.github.mcpsubscriptions.tester;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A push stream of one event type with its arguments ({@code events/stream} of the Events
 * extension, draft SEP-3415), open from its {@code notifications/events/active}: each
 * {@link #next()} waits for the next event's payload. Close it to cancel the
 * subscription.
 *
 * @since 0.1.0
 */
public final class McpEventStream implements AutoCloseable {

	private static final String ACTIVE = "notifications/events/active";

	private static final String EVENT = "notifications/events/event";

	private static final String HEARTBEAT = "notifications/events/heartbeat";

	private static final String TERMINATED = "notifications/events/terminated";

	private final McpTester tester;

	private final String id;

	private final String name;

	private final StreamLog log;

	private final CompletableFuture<JsonNode> active = new CompletableFuture<>();

	private final CompletableFuture<JsonNode> terminated = new CompletableFuture<>();

	private final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();

	private volatile @Nullable String cursor;

	private volatile boolean truncated;

	private volatile int heartbeats;

	private volatile @Nullable HttpResponse<InputStream> response;

	private McpEventStream(McpTester tester, String name) {
		this.tester = tester;
		this.id = "mcp-tester-events-" + tester.nextId();
		this.name = name;
		this.log = new StreamLog("events/stream " + name + " " + this.id);
	}

	static McpEventStream open(McpTester tester, String name, Map<String, ?> arguments, @Nullable String cursor) {
		McpEventStream stream = new McpEventStream(tester, name);
		stream.start(arguments, cursor);
		return stream;
	}

	private void start(Map<String, ?> arguments, @Nullable String from) {
		ObjectNode params = McpTester.json.createObjectNode().put("name", this.name);
		params.set("arguments", McpTester.json.valueToTree(arguments));
		if (from != null) {
			params.put("cursor", from);
		}
		HttpRequest request = this.tester.statelessRequest("events/stream", this.id, params, null).build();
		HttpResponse<InputStream> answer = this.tester.send(request, HttpResponse.BodyHandlers.ofInputStream(),
				"events/stream");
		if (answer.statusCode() != 200 || !McpTester.isEventStream(answer.headers())) {
			String body = McpTester.readBody(answer);
			// Throws the error the server answered with.
			McpTester.result("events/stream", this.id, answer.statusCode(), answer.headers(), body);
			throw new McpHttpException("events/stream (not a stream)", answer.statusCode(), body, answer.headers());
		}
		this.response = answer;
		this.tester.opened(this, this);
		String thread = this.tester.threadNamePrefix() + this.id.substring("mcp-tester-".length());
		SseReader.start(answer.body(), thread, this::arrived, () -> {
			this.log.ended();
			this.active.completeExceptionally(new IllegalStateException("the stream ended"));
			this.terminated.completeExceptionally(new IllegalStateException("the stream ended"));
		});
		JsonNode opened = await(this.active, "notifications/events/active");
		this.truncated = opened.path("truncated").booleanValue();
	}

	private void arrived(String data) {
		this.log.arrived(Instant.now(), data);
		JsonNode message = McpTester.parse(data);
		if (message == null) {
			return;
		}
		JsonNode params = message.path("params");
		JsonNode position = params.get("cursor");
		if (position != null && position.isString()) {
			this.cursor = position.stringValue();
		}
		switch (message.path("method").asString("")) {
			case ACTIVE -> {
				if (!this.active.complete(params) && params.path("truncated").booleanValue()) {
					// A gap in the middle of the stream.
					this.truncated = true;
				}
			}
			case EVENT -> this.events.add(params);
			case HEARTBEAT -> this.heartbeats++;
			case TERMINATED -> this.terminated.complete(params.path("error"));
			default -> {
			}
		}
	}

	/**
	 * The payload ({@code data}) of the next event, waiting for it up to the tester's
	 * timeout.
	 * @return the payload
	 * @throws AssertionError if none arrives in time
	 */
	public JsonNode next() {
		return nextEvent().get("data");
	}

	/**
	 * The next event, whole: {@code eventId}, {@code name}, {@code timestamp},
	 * {@code data}, {@code cursor} and {@code _meta}.
	 * @return the event
	 * @throws AssertionError if none arrives in time
	 */
	public JsonNode nextEvent() {
		try {
			JsonNode event = this.events.poll(this.tester.timeout().toNanos(), TimeUnit.NANOSECONDS);
			if (event == null) {
				throw new AssertionError(
						"No event of " + this.name + " within " + this.tester.timeout() + ".\n" + this.log.describe());
			}
			return event;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for an event", ex);
		}
	}

	/**
	 * The payloads of the next events, waiting for each up to the tester's timeout.
	 * @param count how many
	 * @return the payloads, in order
	 */
	public List<JsonNode> next(int count) {
		List<JsonNode> data = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			data.add(next());
		}
		return data;
	}

	/**
	 * Whether an event arrives within a time: to check that one does not.
	 * @param within how long to wait
	 * @return whether one arrived (it is then taken)
	 */
	public boolean receivesWithin(Duration within) {
		try {
			return this.events.poll(within.toNanos(), TimeUnit.NANOSECONDS) != null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * The error of the stream's {@code notifications/events/terminated}, waiting for it
	 * up to the tester's timeout.
	 * @return the error: {@code code}, {@code message}, {@code data}
	 * @throws AssertionError if the subscription is not terminated in time
	 */
	public JsonNode awaitTermination() {
		return await(this.terminated, "notifications/events/terminated");
	}

	/**
	 * The last cursor the server sent (by {@code active}, an event or a heartbeat): where
	 * a new stream resumes.
	 * @return the cursor, or {@code null} for a type without replay
	 */
	public @Nullable String cursor() {
		return this.cursor;
	}

	/**
	 * Whether the server said that events may have been skipped, when the stream opened
	 * or since.
	 * @return whether an {@code active} said {@code truncated}
	 */
	public boolean wasTruncated() {
		return this.truncated;
	}

	/**
	 * How many heartbeats have arrived.
	 * @return the count
	 */
	public int heartbeats() {
		return this.heartbeats;
	}

	private JsonNode await(CompletableFuture<JsonNode> future, String what) {
		try {
			return future.get(this.tester.timeout().toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (ExecutionException ex) {
			throw new AssertionError("No " + what + ": " + ex.getCause().getMessage() + ".\n" + this.log.describe());
		}
		catch (TimeoutException ex) {
			throw new AssertionError("No " + what + " within " + this.tester.timeout() + ".\n" + this.log.describe());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for " + what, ex);
		}
	}

	/**
	 * Cancel the subscription: over HTTP, closing the stream is the cancellation.
	 */
	@Override
	public void close() {
		this.tester.closed(this);
		McpTester.closeQuietly(this.response);
	}

}
