package io.github.mcpsubscriptions.events;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.events.McpEventStore.Page;
import io.github.mcpsubscriptions.events.McpEventStore.Stored;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ApplicationEvent;

/**
 * The event log kept in a {@link McpEventStore} that every node shares. Positions and the
 * epoch are the store's, so a cursor taken on one node resumes on another, or on the same
 * one after a restart. An event read back is rebuilt from its payload with the codec
 * (matchers and policies need the object, and the node that published it may be gone), so
 * an event class served in a cluster must be one the codec reads its own payload back
 * into: a record, or a bean with a default constructor and setters.
 */
final class StoredEventLog implements EventLog {

	private static final Log logger = LogFactory.getLog(StoredEventLog.class);

	private static final int CACHE_SIZE = 4096;

	private final McpEventStore store;

	private final EventTypeRegistry types;

	private final JsonRpcCodec codec;

	private final Clock clock;

	private final AppendSignal appends = new AppendSignal();

	/**
	 * The events rebuilt lately, by epoch and position: a log entry never changes, and a
	 * poll reads again what the previous polls read.
	 */
	private final Map<String, LoggedEvent> rebuilt = new LinkedHashMap<>(256, 0.75f, true) {
		@Override
		protected boolean removeEldestEntry(Map.Entry<String, LoggedEvent> eldest) {
			return size() > CACHE_SIZE;
		}
	};

	StoredEventLog(McpEventStore store, EventTypeRegistry types, JsonRpcCodec codec, Clock clock) {
		this.store = store;
		this.types = types;
		this.codec = codec;
		this.clock = clock;
		for (EventType type : types.all()) {
			if (ApplicationEvent.class.isAssignableFrom(type.eventClass())) {
				logger.warn("The MCP event type '" + type.name() + "' is declared on " + type.eventClass().getName()
						+ ", an ApplicationEvent, which cannot be rebuilt from its payload: its events are recorded "
						+ "in the shared event log but never delivered. Declare it on a record or a bean instead");
			}
		}
	}

	@Override
	public String epoch() {
		return this.store.epoch();
	}

	@Override
	public Instant now() {
		return this.clock.instant();
	}

	@Override
	public LoggedEvent append(EventType type, Object event, JsonNode data) {
		LoggedEvent logged = logged(type, event, data, this.store.append(type.name(), this.codec.writeAsString(data)));
		this.appends.appended();
		return logged;
	}

	@Override
	public void whenAppended(Runnable listener) {
		this.appends.add(listener);
	}

	private LoggedEvent logged(EventType type, Object event, JsonNode data, Stored stored) {
		LoggedEvent logged = new LoggedEvent(stored.position(), eventId(stored), type.name(),
				Instant.ofEpochMilli(stored.timestamp()), event, data);
		synchronized (this.rebuilt) {
			this.rebuilt.put(key(stored), logged);
		}
		return logged;
	}

	/**
	 * Record an event for an entry of the cluster's change log, unless another node (or
	 * this one) did.
	 * @param type its type
	 * @param event the event
	 * @param data its default payload
	 * @param changePosition the change's position in the change log
	 * @return the event as logged, or {@code null} if it was logged before
	 */
	@Nullable LoggedEvent appendOnce(EventType type, Object event, JsonNode data, String changePosition) {
		Stored stored = this.store.appendOnce(type.name(), this.codec.writeAsString(data), changePosition);
		LoggedEvent logged = (stored != null) ? logged(type, event, data, stored) : null;
		// Logged here or by another node first: either way the log holds it now.
		this.appends.appended();
		return logged;
	}

	@Override
	public Slice after(long position) {
		Page page = this.store.after(position);
		List<LoggedEvent> events = new ArrayList<>(page.events().size());
		for (Stored stored : page.events()) {
			LoggedEvent event = rebuild(stored);
			if (event != null) {
				events.add(event);
			}
		}
		return new Slice(page.head(), page.oldest(), events);
	}

	private @Nullable LoggedEvent rebuild(Stored stored) {
		String key = key(stored);
		synchronized (this.rebuilt) {
			LoggedEvent known = this.rebuilt.get(key);
			if (known != null) {
				return known;
			}
		}
		EventType type = this.types.get(stored.type());
		if (type == null || ApplicationEvent.class.isAssignableFrom(type.eventClass())) {
			// A type this node does not declare (a rolling upgrade), or one that cannot
			// be rebuilt (warned at start-up): no subscription of this node can get it.
			return null;
		}
		LoggedEvent event;
		try {
			JsonNode data = this.codec.parse(stored.data().getBytes(StandardCharsets.UTF_8));
			event = new LoggedEvent(stored.position(), eventId(stored), stored.type(),
					Instant.ofEpochMilli(stored.timestamp()), this.codec.bind(data, type.eventClass()), data);
		}
		catch (RuntimeException ex) {
			logger.warn("The MCP event " + eventId(stored) + " of " + stored.type()
					+ " could not be rebuilt from its payload and was skipped", ex);
			return null;
		}
		synchronized (this.rebuilt) {
			this.rebuilt.put(key, event);
		}
		return event;
	}

	private static String key(Stored stored) {
		return stored.epoch() + ":" + stored.position();
	}

	/** The same on every node: the store's epoch and position. */
	private static String eventId(Stored stored) {
		return "evt_" + stored.epoch() + "_" + stored.position();
	}

}
