package io.github.mcpsubscriptions.capture;

import java.util.List;

import io.github.mcpsubscriptions.notification.ResourceChange;

/**
 * Where captured changes go: the node's change feed, or a cluster's shared change log.
 * Both methods return only when what they were given will reach the subscribers (of every
 * node), and throw otherwise: the capture moves its position on only after that.
 *
 * @since 0.1.0
 */
public interface CaptureSink {

	/**
	 * Publishes captured changes, in order.
	 * @param source the id of the database's record of changes (its cursor's id): the
	 * positions of one source are comparable
	 * @param changes the changes with their positions; a sink that remembers the last
	 * position it took (a shared log) skips any change at or before it, so a change read
	 * twice (a reader stopped between publishing and saving its position) is published
	 * once
	 */
	void publish(String source, List<Positioned> changes);

	/**
	 * Tells the subscribers of the captured resources to re-read: changes were pruned
	 * before the capture read them.
	 * @param tables the captured tables
	 */
	void resync(List<CapturedTable> tables);

	/**
	 * Whether what this sink takes reaches the subscribers of every node (a shared log):
	 * then one node at a time reads, the one holding the lease. Otherwise each node reads
	 * the changes for itself.
	 * @return whether the sink is shared; {@code false} by default
	 */
	default boolean isShared() {
		return false;
	}

	/**
	 * A change and its position in the database's record.
	 *
	 * @param change the change
	 * @param position where its row stands
	 * @param part which of the changes of its row (an update that moves a row to another
	 * URI is two changes: deleted, then created)
	 */
	record Positioned(ResourceChange change, CapturePosition position, int part) {

		/**
		 * The change's position as text that sorts in order, unique per change.
		 * @return the text
		 */
		public String key() {
			return this.position.toSortableString() + ":" + this.part;
		}

	}

}
