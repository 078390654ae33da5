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
 * nothing per client, the cursor is a position in the event log.
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

	EventMethods(EventTypeRegistry types, EventLog log, McpEventAccessPolicy policy, JsonRpcCodec codec,
			int maxEventsPerPoll, Duration pollInterval, int pageSize) {
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
	}

	void register(McpRequestDispatcher dispatcher) {
		dispatcher.addStatelessMethod(EventsWire.LIST, this::list);
		dispatcher.addStatelessMethod(EventsWire.POLL, this::poll);
		dispatcher.addStatelessExtension(EventsWire.EXTENSION_ID, EventsWire.SETTINGS);
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
		Principal principal = exchange.getPrincipal();
		JsonNode nameNode = (params != null) ? params.get("name") : null;
		if (nameNode == null || !nameNode.isString()) {
			throw EventsWire.invalidParams("\"name\" is required and must be a string");
		}
		String name = nameNode.stringValue();
		EventType type = this.types.get(name);
		if (type == null || !this.policy.canSee(principal, name)) {
			throw EventsWire.notFoundEvent(name);
		}
		if (!type.delivers("poll")) {
			throw EventsWire.unsupportedDelivery("poll");
		}
		Object arguments = EventMatching.bind(this.codec, type,
				EventMatching.argumentsNode(this.codec, params.get("arguments")));
		int maxEvents = maxEvents(params.get("maxEvents"));
		Long maxAgeMs = maxAgeMs(params.get("maxAgeMs"));
		JsonNode cursorNode = params.get("cursor");
		if (cursorNode != null && !cursorNode.isNull() && !cursorNode.isString()) {
			throw EventsWire.invalidParams("\"cursor\" must be a string or null");
		}
		Cursor cursor = (cursorNode != null && cursorNode.isString()) ? Cursor.decode(cursorNode.stringValue()) : null;
		// Judged on every poll: a poll has no subscribe step, and a revoked permission
		// must show on the next one.
		if (!this.policy.canSubscribe(principal, name, arguments)) {
			throw EventsWire.forbidden(name);
		}
		if (cursor == null) {
			// Start from now: no history is replayed (and maxAgeMs is ignored).
			Slice now = this.log.after(Long.MAX_VALUE);
			return result(List.of(), now.head(), false, false);
		}
		boolean sameEpoch = cursor.epoch().equals(this.log.epoch());
		Slice slice = this.log.after(sameEpoch ? cursor.position() : 0);
		long start = cursor.position();
		boolean truncated = false;
		if (!sameEpoch || start > slice.head() || start < slice.oldest() - 1) {
			// Behind what is retained (or of another lifetime of the log): resume from
			// the oldest event retained, and say that events may have been skipped.
			truncated = true;
			start = slice.oldest() - 1;
		}
		Instant floor = (maxAgeMs != null) ? this.log.now().minusMillis(maxAgeMs) : null;
		List<Occurrence> events = new ArrayList<>();
		long position = slice.head();
		long lastPosition = start;
		boolean hasMore = false;
		for (LoggedEvent event : slice.events()) {
			if (event.position() <= start || !event.type().equals(name)) {
				continue;
			}
			JsonNode data = EventMatching.deliverable(this.policy, this.codec, type, event, arguments, principal);
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

	private PollResult result(List<Occurrence> events, long position, boolean truncated, boolean hasMore) {
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
