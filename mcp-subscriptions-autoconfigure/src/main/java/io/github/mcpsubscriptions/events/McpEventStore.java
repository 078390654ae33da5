package io.github.mcpsubscriptions.events;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Where a shared event log keeps its events, for nodes that must see the same log: the
 * cluster's Redis. Holds each event as its type's name and its payload as JSON, so that a
 * node that did not publish an event (or restarted since) can match it; positions and the
 * epoch are the store's, the same on every node. Retention (by count and by age) is the
 * store's too. Without a store, each node keeps its own log in memory.
 *
 * @since 0.1.0
 */
public interface McpEventStore {

	/**
	 * The log's epoch: changes only when the store lost its events, so that the cursors
	 * of before are known to be behind what is retained.
	 * @return the epoch, never containing {@code ':'}
	 */
	String epoch();

	/**
	 * Append an event after every one appended before it, by any node.
	 * @param type its type's name
	 * @param data its payload, a JSON object
	 * @return the event as stored
	 */
	Stored append(String type, String data);

	/**
	 * Append an event for an entry of the cluster's change log, unless an event was
	 * appended for that entry or a later one already: every node reads every change, and
	 * the first to append it records it.
	 * @param type its type's name
	 * @param data its payload, a JSON object
	 * @param changePosition the change's position in the change log
	 * @return the event as stored, or {@code null} if it was appended before
	 */
	@Nullable Stored appendOnce(String type, String data, String changePosition);

	/**
	 * The events retained after a position, in order.
	 * @param position the position
	 * @return the events and the log's bounds
	 */
	Page after(long position);

	/**
	 * An event as stored.
	 *
	 * @param epoch the epoch it was stored in
	 * @param position its position in the log, from 1, growing by one per event
	 * @param type its type's name
	 * @param timestamp when it was stored, in milliseconds since the epoch
	 * @param data its payload, JSON
	 */
	record Stored(String epoch, long position, String type, long timestamp, String data) {
	}

	/**
	 * Events after a position.
	 *
	 * @param epoch the log's epoch
	 * @param head the position of the newest event (0 when there has been none)
	 * @param oldest the position of the oldest event retained ({@code head + 1} when none
	 * is)
	 * @param events the retained events after the position asked for, in order
	 */
	record Page(String epoch, long head, long oldest, List<Stored> events) {
	}

}
