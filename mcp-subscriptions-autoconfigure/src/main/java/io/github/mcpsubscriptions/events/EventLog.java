package io.github.mcpsubscriptions.events;

import java.time.Instant;
import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * The retained, bounded log of recorded events that cursors are positions in. Positions
 * grow by one per event; a log has an epoch, and a cursor of another epoch (another
 * node's lifetime) is behind what is retained. The seam for a shared log (a cluster's)
 * besides the in-memory one.
 */
interface EventLog {

	/**
	 * The log's epoch: changes when the log forgets everything (a restart of an in-memory
	 * log).
	 * @return the epoch, never containing {@code ':'}
	 */
	String epoch();

	/**
	 * The log's clock, which stamps events and judges {@code maxAgeMs}.
	 * @return now
	 */
	Instant now();

	/**
	 * Record an event, after the ones recorded before it.
	 * @param type its type
	 * @param event the event as published
	 * @param data its default payload
	 * @return the event as logged
	 */
	LoggedEvent append(EventType type, Object event, JsonNode data);

	/**
	 * Run a listener after each event this node appends (also after an append another
	 * node made first, for a log that records each change once), on the appending thread:
	 * it must only hand work over.
	 * @param listener the listener
	 */
	void whenAppended(Runnable listener);

	/**
	 * The events retained after a position, in order.
	 * @param position the position
	 * @return what is retained after it
	 */
	Slice after(long position);

	/**
	 * An event as logged.
	 *
	 * @param position its position, the cursor's after it
	 * @param eventId its stable identifier
	 * @param type its type's name
	 * @param timestamp when it was recorded
	 * @param event the event as published
	 * @param data its default payload
	 */
	record LoggedEvent(long position, String eventId, String type, Instant timestamp, Object event, JsonNode data) {
	}

	/**
	 * Events after a position.
	 *
	 * @param head the position of the newest event (0 when there has been none)
	 * @param oldest the position of the oldest event retained ({@code head + 1} when none
	 * is)
	 * @param events the retained events after the position asked for, in order
	 */
	record Slice(long head, long oldest, List<LoggedEvent> events) {
	}

}
