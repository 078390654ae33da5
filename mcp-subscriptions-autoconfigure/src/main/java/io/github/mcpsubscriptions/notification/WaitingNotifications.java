package io.github.mcpsubscriptions.notification;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * The notifications waiting in an {@link Outbox}, in order, at most one per key. An
 * outbox whose stream keeps up holds one notification at a time, and a change is offered
 * to thousands of outboxes in a row: that one is kept in a field, because a hash table
 * per subscriber cost a cache miss and an entry per offer. The table is made the first
 * time two wait, and kept for the next burst. Not thread-safe: the outbox's lock guards it.
 */
final class WaitingNotifications implements Iterable<OutboundNotification> {

	/** The one waiting notification, while the table holds none. */
	private @Nullable OutboundNotification sole;

	/** Used once two have waited at the same time; then everything waiting is here. */
	private @Nullable LinkedHashMap<OutboundNotification.Key, OutboundNotification> table;

	/** Whether what waits is in {@link #table} rather than in {@link #sole}. */
	private boolean spilled;

	boolean isEmpty() {
		return !this.spilled && this.sole == null;
	}

	int size() {
		if (this.spilled) {
			return table().size();
		}
		return (this.sole != null) ? 1 : 0;
	}

	/**
	 * Queue a notification last, or let it take the place of the one with the same key.
	 * @return the one it replaced, or {@code null} if it was queued last
	 */
	@Nullable OutboundNotification put(OutboundNotification notification) {
		if (!this.spilled) {
			OutboundNotification current = this.sole;
			if (current == null || current.key().equals(notification.key())) {
				this.sole = notification;
				return current;
			}
			LinkedHashMap<OutboundNotification.Key, OutboundNotification> table = this.table;
			if (table == null) {
				table = new LinkedHashMap<>();
				this.table = table;
			}
			table.put(current.key(), current);
			this.sole = null;
			this.spilled = true;
		}
		return table().put(notification.key(), notification);
	}

	@Nullable OutboundNotification get(OutboundNotification.Key key) {
		if (this.spilled) {
			return table().get(key);
		}
		OutboundNotification current = this.sole;
		return (current != null && current.key().equals(key)) ? current : null;
	}

	void remove(OutboundNotification.Key key) {
		if (this.spilled) {
			table().remove(key);
			this.spilled = !table().isEmpty();
		}
		else if (this.sole != null && this.sole.key().equals(key)) {
			this.sole = null;
		}
	}

	void removeIf(Predicate<OutboundNotification> filter) {
		if (this.spilled) {
			table().values().removeIf(filter);
			this.spilled = !table().isEmpty();
		}
		else if (this.sole != null && filter.test(this.sole)) {
			this.sole = null;
		}
	}

	/** Queue a notification first, unless one with its key waits. */
	void putFirst(OutboundNotification notification) {
		if (get(notification.key()) != null) {
			return;
		}
		List<OutboundNotification> rest = new ArrayList<>(size());
		forEach(rest::add);
		clear();
		put(notification);
		rest.forEach(this::put);
	}

	void clear() {
		this.sole = null;
		if (this.spilled) {
			table().clear();
			this.spilled = false;
		}
	}

	/** In order; {@link Iterator#remove()} removes. */
	@Override
	public Iterator<OutboundNotification> iterator() {
		return this.spilled ? new TableIterator(table().values().iterator()) : new SoleIterator();
	}

	private LinkedHashMap<OutboundNotification.Key, OutboundNotification> table() {
		LinkedHashMap<OutboundNotification.Key, OutboundNotification> table = this.table;
		if (table == null) {
			throw new IllegalStateException("No table");
		}
		return table;
	}

	private final class SoleIterator implements Iterator<OutboundNotification> {

		private boolean taken;

		@Override
		public boolean hasNext() {
			return !this.taken && WaitingNotifications.this.sole != null;
		}

		@Override
		public OutboundNotification next() {
			OutboundNotification current = WaitingNotifications.this.sole;
			if (this.taken || current == null) {
				throw new NoSuchElementException();
			}
			this.taken = true;
			return current;
		}

		@Override
		public void remove() {
			if (!this.taken) {
				throw new IllegalStateException();
			}
			WaitingNotifications.this.sole = null;
		}

	}

	private final class TableIterator implements Iterator<OutboundNotification> {

		private final Iterator<OutboundNotification> values;

		TableIterator(Iterator<OutboundNotification> values) {
			this.values = values;
		}

		@Override
		public boolean hasNext() {
			return this.values.hasNext();
		}

		@Override
		public OutboundNotification next() {
			return this.values.next();
		}

		@Override
		public void remove() {
			this.values.remove();
			WaitingNotifications.this.spilled = !table().isEmpty();
		}

	}

}
