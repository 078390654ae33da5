package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.events.EventLog.LoggedEvent;
import io.github.mcpsubscriptions.events.EventLog.Slice;
import io.github.mcpsubscriptions.events.EventsWire.Cursor;
import io.github.mcpsubscriptions.events.EventsWire.Descriptor;
import io.github.mcpsubscriptions.events.EventsWire.ListResult;
import io.github.mcpsubscriptions.events.EventsWire.Occurrence;
import io.github.mcpsubscriptions.events.EventsWire.PollResult;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.server.McpExchange;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code events/list} and {@code events/poll} (protocol 2026-07-28). A poll is answered
 * from its {@code name}, {@code arguments} and {@code cursor} alone: the server keeps
 * nothing per client, the cursor is a position in the event log. A poll and a push stream
 * ({@link EventStreams}) name and resume their subscription the same way
 * ({@link #subscription}, {@link #resume}).
 */
final class EventMethods {

	private static final String PAGE_PREFIX = "offset:";

	private final EventTypeRegistry types;

	private final EventLog log;

	private final McpEventAccessPolicy policy;

	private final JsonRpcCodec codec;

	private final int maxEventsPerPoll;

	private final Duration pollInterval;

	private final int pageSize;

	private final EventStats stats;

	EventMethods(EventTypeRegistry types, EventLog log, McpEventAccessPolicy policy, JsonRpcCodec codec,
			int maxEventsPerPoll, Duration pollInterval, int pageSize, EventStats stats) {
		if (maxEventsPerPoll < 1 || pageSize < 1) {
			throw new IllegalArgumentException("The events per poll and the page size must be at least 1");
		}
		this.types = types;
		this.log = log;
		this.policy = policy;
		this.codec = codec;
		this.maxEventsPerPoll = maxEventsPerPoll;
		this.pollInterval = pollInterval;
		this.pageSize = pageSize;
		this.stats = stats;
	}

	void register(McpRequestDispatcher dispatcher) {
		dispatcher.addStatelessMethod(EventsWire.LIST, this::list);
		dispatcher.addStatelessMethod(EventsWire.POLL, this::poll);
		// list_changed travels on listen streams only: promised only where they are on.
		dispatcher.addStatelessExtension(EventsWire.EXTENSION_ID,
				dispatcher.isListenEnabled() ? EventsWire.SETTINGS : EventsWire.SETTINGS_WITHOUT_LIST_CHANGED);
		if (dispatcher.isListenEnabled()) {
			dispatcher.addListenListChanges(EventsWire.LIST_CHANGED_FILTER, EventsWire.LIST_CHANGED);
		}
	}

	ListResult list(McpExchange exchange, @Nullable ObjectNode params) {
		int offset = 0;
		JsonNode cursor = (params != null) ? params.get("cursor") : null;
		if (cursor != null && !cursor.isNull()) {
			offset = pageOffset(cursor);
		}
		Principal principal = exchange.getPrincipal();
		// Filtered before paging, so that offsets count only what this caller sees.
		List<EventType> visible = this.types.all()
			.stream()
			.filter((type) -> this.policy.canSee(principal, type.name()))
			.toList();
		List<Descriptor> page = visible.stream()
			.skip(offset)
			.limit(this.pageSize)
			.map((type) -> new Descriptor(type.name(), type.description(), type.delivery(), type.inputSchema(),
					type.payloadSchema()))
			.toList();
		String next = (offset + this.pageSize < visible.size()) ? PAGE_PREFIX + (offset + this.pageSize) : null;
		return new ListResult(page, next);
	}

	private static int pageOffset(JsonNode cursor) {
		if (cursor.isString() && cursor.stringValue().startsWith(PAGE_PREFIX)) {
			try {
				int offset = Integer.parseInt(cursor.stringValue().substring(PAGE_PREFIX.length()));
				if (offset >= 0) {
					return offset;
				}
			}
			catch (NumberFormatException ex) {
				// Not a cursor of this server.
			}
		}
		throw EventsWire.invalidParams("\"cursor\" is not a cursor this server issued");
	}

	PollResult poll(McpExchange exchange, @Nullable ObjectNode params) {
		Subscription subscription = subscription(exchange.getPrincipal(), params, "poll");
		int maxEvents = maxEvents(params.get("maxEvents"));
		Resumption resumption = resume(subscription.cursor());
		if (subscription.cursor() == null) {
			// Start from now: no history is replayed (and maxAgeMs is ignored).
			return result(List.of(), resumption.start(), false, false);
		}
		Slice slice = resumption.slice();
		long start = resumption.start();
		boolean truncated = resumption.truncated();
		Instant floor = floor(subscription);
		List<Occurrence> events = new ArrayList<>();
		long position = slice.head();
		long lastPosition = start;
		boolean hasMore = false;
		for (LoggedEvent event : slice.events()) {
			if (event.position() <= start) {
				continue;
			}
			JsonNode data = deliverable(subscription, event);
			if (data == null) {
				continue;
			}
			if (floor != null && event.timestamp().isBefore(floor)) {
				// Replay begins at the later of the cursor and now - maxAgeMs.
				truncated = true;
				continue;
			}
			if (events.size() == maxEvents) {
				// More than the batch holds: stop after the last event returned.
				hasMore = true;
				position = lastPosition;
				break;
			}
			events.add(new Occurrence(event.eventId(), event.type(), event.timestamp().toString(), data));
			lastPosition = event.position();
		}
		return result(events, position, truncated, hasMore);
	}

	/**
	 * The subscription a poll or a stream request names, validated the same way for both:
	 * its {@code name} (a type the caller sees, that offers the mode), its
	 * {@code arguments} (against the type's {@code inputSchema}), {@code maxAgeMs},
	 * {@code cursor}, and then whether the caller may subscribe: judged on every poll and
	 * at the opening of every stream, so that a revoked permission shows.
	 * @param principal the caller, or {@code null}
	 * @param params the request's params
	 * @param mode the delivery mode, {@code poll} or {@code push}
	 * @return the subscription
	 * @throws io.github.mcpsubscriptions.jsonrpc.JsonRpcException {@code InvalidParams},
	 * {@code NotFound}, {@code Unsupported} or {@code Forbidden}
	 */
	Subscription subscription(@Nullable Principal principal, @Nullable ObjectNode params, String mode) {
		JsonNode nameNode = (params != null) ? params.get("name") : null;
		if (nameNode == null || !nameNode.isString()) {
			throw EventsWire.invalidParams("\"name\" is required and must be a string");
		}
		String name = nameNode.stringValue();
		EventType type = this.types.get(name);
		if (type == null || !this.policy.canSee(principal, name)) {
			throw EventsWire.notFoundEvent(name);
		}
		if (!type.delivers(mode)) {
			throw EventsWire.unsupportedDelivery(mode);
		}
		Object arguments = EventMatching.bind(this.codec, type,
				EventMatching.argumentsNode(this.codec, params.get("arguments")));
		Long maxAgeMs = maxAgeMs(params.get("maxAgeMs"));
		JsonNode cursorNode = params.get("cursor");
		if (cursorNode != null && !cursorNode.isNull() && !cursorNode.isString()) {
			throw EventsWire.invalidParams("\"cursor\" must be a string or null");
		}
		Cursor cursor = (cursorNode != null && cursorNode.isString()) ? Cursor.decode(cursorNode.stringValue()) : null;
		if (!this.policy.canSubscribe(principal, name, arguments)) {
			throw EventsWire.forbidden(name);
		}
		return new Subscription(type, arguments, principal, cursor, maxAgeMs);
	}

	/**
	 * Where delivery resumes from a cursor: now for none; behind what is retained (or of
	 * another lifetime of the log), from the oldest event retained, {@code truncated}.
	 * @param cursor the cursor, or {@code null}
	 * @return the log read and the position delivery starts after
	 */
	Resumption resume(@Nullable Cursor cursor) {
		if (cursor == null) {
			Slice now = this.log.after(Long.MAX_VALUE);
			return new Resumption(now, now.head(), false);
		}
		boolean sameEpoch = cursor.epoch().equals(this.log.epoch());
		Slice slice = this.log.after(sameEpoch ? cursor.position() : 0);
		long start = cursor.position();
		if (!sameEpoch || start > slice.head() || start < slice.oldest() - 1) {
			// Events may have been skipped: say so, and resume where the log can.
			return new Resumption(slice, slice.oldest() - 1, true);
		}
		return new Resumption(slice, start, false);
	}

	/**
	 * What a subscription receives of an event of the log, if anything.
	 * @param subscription the subscription
	 * @param event the event
	 * @return its payload, or {@code null}
	 */
	@Nullable JsonNode deliverable(Subscription subscription, LoggedEvent event) {
		if (!event.type().equals(subscription.type().name())) {
			return null;
		}
		return EventMatching.deliverable(this.policy, this.codec, subscription.type(), event, subscription.arguments(),
				subscription.principal());
	}

	/**
	 * The floor of a replay: events before it are skipped ({@code truncated}).
	 * @param subscription the subscription
	 * @return now less its {@code maxAgeMs}, or {@code null} for none
	 */
	@Nullable Instant floor(Subscription subscription) {
		return (subscription.maxAgeMs() != null) ? this.log.now().minusMillis(subscription.maxAgeMs()) : null;
	}

	EventLog log() {
		return this.log;
	}

	McpEventAccessPolicy policy() {
		return this.policy;
	}

	JsonRpcCodec codec() {
		return this.codec;
	}

	EventStats stats() {
		return this.stats;
	}

	private PollResult result(List<Occurrence> events, long position, boolean truncated, boolean hasMore) {
		if (!events.isEmpty()) {
			this.stats.delivered(EventStats.POLL, events.size());
		}
		return new PollResult(events, new Cursor(this.log.epoch(), position).encode(), truncated, hasMore,
				this.pollInterval.toMillis());
	}

	private int maxEvents(@Nullable JsonNode node) {
		if (node == null || node.isNull()) {
			return this.maxEventsPerPoll;
		}
		if (!node.isIntegralNumber() || !node.canConvertToInt() || node.intValue() < 1) {
			throw EventsWire.invalidParams("\"maxEvents\" must be an integer of at least 1");
		}
		// Larger caps are clamped: a batch never exceeds the server's own.
		return Math.min(node.intValue(), this.maxEventsPerPoll);
	}

	/**
	 * A subscription as a poll or a stream request names it.
	 *
	 * @param type its event type
	 * @param arguments its bound arguments, {@code null} for a type without
	 * @param principal its principal, or {@code null}
	 * @param cursor where it resumes, {@code null} for now
	 * @param maxAgeMs the floor of its replay, or {@code null}
	 */
	record Subscription(EventType type, @Nullable Object arguments, @Nullable Principal principal,
			@Nullable Cursor cursor, @Nullable Long maxAgeMs) {
	}

	/**
	 * Where delivery resumes.
	 *
	 * @param slice the log as read
	 * @param start the position delivery starts after
	 * @param truncated whether events may have been skipped
	 */
	record Resumption(Slice slice, long start, boolean truncated) {
	}

	private static @Nullable Long maxAgeMs(@Nullable JsonNode node) {
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
			throw EventsWire.invalidParams("\"maxAgeMs\" must be an integer of at least 0");
		}
		return node.longValue();
	}

}
