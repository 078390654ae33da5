package io.github.mcpsubscriptions.notification;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * The notifications waiting in a {@link Pending}, in order, at most one per key. A change
 * is offered to thousands of outboxes in a row, and an outbox whose stream keeps up, or
 * nearly, holds a few notifications at a time: those wait in a small ring of slots, found
 * by comparing keys. Each offer stores one reference into long-lived memory, which G1
 * records by dirtying that memory's card (512 bytes) for a refinement thread to scan;
 * rings therefore share arrays, {@value #RINGS_PER_ARRAY} to one, so that a change fanned
 * out to the outboxes dirties a card per {@value #RINGS_PER_ARRAY} of them, not one each.
 * (An entry of a hash table stored three references per offer, each in a card of its
 * own.) More than {@value #FEW} waiting move to a {@link KeyedRing} of the outbox's own,
 * made then and kept for the next burst. Not thread-safe: the outbox's lock guards it.
 */
final class WaitingNotifications implements Iterable<OutboundNotification> {

	/** How many wait in the ring before they move to the table: a power of two. */
	static final int FEW = 8;

	/** How many rings share one array: 128 slots, a card's worth of references. */
	static final int RINGS_PER_ARRAY = 16;

	private static final Object ARRAYS_LOCK = new Object();

	/** The array new rings are cut from. */
	private static @Nullable OutboundNotification[] sharedArray = new OutboundNotification[0];

	/** How many rings {@link #sharedArray} has given out. */
	private static int ringsGiven = RINGS_PER_ARRAY;

	/**
	 * The array this ring's slots are in, from {@link #base} on: shared with rings made
	 * about the same time, and reclaimed with the last of them.
	 */
	private final @Nullable OutboundNotification[] slots;

	private final int base;

	/** The ring's first slot. */
	private int head;

	/** How many wait in the ring. */
	private int count;

	/**
	 * Used once more than {@value #FEW} have waited at the same time; then everything
	 * waiting is here.
	 */
	private @Nullable KeyedRing table;

	/** Whether what waits is in {@link #table} rather than in the ring. */
	private boolean spilled;

	WaitingNotifications() {
		synchronized (ARRAYS_LOCK) {
			if (ringsGiven == RINGS_PER_ARRAY) {
				sharedArray = new OutboundNotification[RINGS_PER_ARRAY * FEW];
				ringsGiven = 0;
			}
			this.slots = sharedArray;
			this.base = ringsGiven * FEW;
			ringsGiven++;
		}
	}

	boolean isEmpty() {
		return !this.spilled && this.count == 0;
	}

	int size() {
		return this.spilled ? table().size() : this.count;
	}

	/**
	 * Queue a notification last, or let it take the place of the one with the same key.
	 * @return the one it replaced, or {@code null} if it was queued last
	 */
	@Nullable OutboundNotification put(OutboundNotification notification) {
		if (!this.spilled) {
			int at = indexOf(notification.key());
			if (at >= 0) {
				int slot = slot(at);
				OutboundNotification current = this.slots[slot];
				this.slots[slot] = notification;
				return current;
			}
			if (this.count < FEW) {
				this.slots[slot(this.count)] = notification;
				this.count++;
				return null;
			}
			spill();
		}
		return table().put(notification);
	}

	@Nullable OutboundNotification get(OutboundNotification.Key key) {
		if (this.spilled) {
			return table().get(key);
		}
		int at = indexOf(key);
		return (at >= 0) ? this.slots[slot(at)] : null;
	}

	/** The first notification, left where it is, if any. */
	@Nullable OutboundNotification peekFirst() {
		if (this.spilled) {
			return table().peekFirst();
		}
		return (this.count == 0) ? null : this.slots[slot(0)];
	}

	/** Take the first notification out, if any. */
	@Nullable OutboundNotification pollFirst() {
		if (this.spilled) {
			OutboundNotification first = table().pollFirst();
			this.spilled = !table().isEmpty();
			return first;
		}
		if (this.count == 0) {
			return null;
		}
		OutboundNotification first = this.slots[this.base + this.head];
		removeAt(0);
		return first;
	}

	void remove(OutboundNotification.Key key) {
		if (this.spilled) {
			table().remove(key);
			this.spilled = !table().isEmpty();
			return;
		}
		int at = indexOf(key);
		if (at >= 0) {
			removeAt(at);
		}
	}

	void removeIf(Predicate<OutboundNotification> filter) {
		if (this.spilled) {
			table().removeIf(filter);
			this.spilled = !table().isEmpty();
			return;
		}
		for (int at = this.count - 1; at >= 0; at--) {
			OutboundNotification waiting = this.slots[slot(at)];
			if (waiting != null && filter.test(waiting)) {
				removeAt(at);
			}
		}
	}

	/** Queue a notification first, unless one with its key waits. */
	void putFirst(OutboundNotification notification) {
		if (get(notification.key()) != null) {
			return;
		}
		if (!this.spilled && this.count < FEW) {
			this.head = (this.head - 1) & (FEW - 1);
			this.slots[this.base + this.head] = notification;
			this.count++;
			return;
		}
		List<OutboundNotification> rest = new ArrayList<>(size());
		forEach(rest::add);
		clear();
		put(notification);
		rest.forEach(this::put);
	}

	void clear() {
		for (int at = 0; at < this.count; at++) {
			this.slots[slot(at)] = null;
		}
		this.head = 0;
		this.count = 0;
		if (this.spilled) {
			table().clear();
			this.spilled = false;
		}
	}

	/** In order; {@link Iterator#remove()} removes. */
	@Override
	public Iterator<OutboundNotification> iterator() {
		return this.spilled ? new TableIterator(table().iterator()) : new RingIterator();
	}

	/** The index in {@link #slots} of the ring's {@code at}-th notification. */
	private int slot(int at) {
		return this.base + ((this.head + at) & (FEW - 1));
	}

	/** Where in the ring the notification with the key waits, or -1. */
	private int indexOf(OutboundNotification.Key key) {
		for (int at = 0; at < this.count; at++) {
			OutboundNotification waiting = this.slots[slot(at)];
			if (waiting != null && waiting.key().equals(key)) {
				return at;
			}
		}
		return -1;
	}

	/** Take the ring's {@code at}-th notification out; those behind it move up. */
	private void removeAt(int at) {
		if (at == 0) {
			this.slots[this.base + this.head] = null;
			this.head = (this.head + 1) & (FEW - 1);
		}
		else {
			for (int i = at; i < this.count - 1; i++) {
				this.slots[slot(i)] = this.slots[slot(i + 1)];
			}
			this.slots[slot(this.count - 1)] = null;
		}
		this.count--;
		if (this.count == 0) {
			this.head = 0;
		}
	}

	/** The ring is full: everything waiting moves to the table, in order. */
	private void spill() {
		KeyedRing table = this.table;
		if (table == null) {
			table = new KeyedRing();
			this.table = table;
		}
		for (int at = 0; at < this.count; at++) {
			OutboundNotification waiting = this.slots[slot(at)];
			if (waiting != null) {
				table.put(waiting);
			}
		}
		clear();
		this.spilled = true;
	}

	private KeyedRing table() {
		KeyedRing table = this.table;
		if (table == null) {
			throw new IllegalStateException("No table");
		}
		return table;
	}

	private final class RingIterator implements Iterator<OutboundNotification> {

		/** The ring position of the next notification. */
		private int next;

		private boolean removable;

		@Override
		public boolean hasNext() {
			return this.next < WaitingNotifications.this.count;
		}

		@Override
		public OutboundNotification next() {
			if (!hasNext()) {
				throw new NoSuchElementException();
			}
			OutboundNotification current = WaitingNotifications.this.slots[slot(this.next)];
			if (current == null) {
				throw new NoSuchElementException();
			}
			this.next++;
			this.removable = true;
			return current;
		}

		@Override
		public void remove() {
			if (!this.removable) {
				throw new IllegalStateException();
			}
			this.removable = false;
			this.next--;
			removeAt(this.next);
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
