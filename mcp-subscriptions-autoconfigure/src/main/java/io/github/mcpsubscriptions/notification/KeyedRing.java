package io.github.mcpsubscriptions.notification;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * Notifications in the order they were queued, at most one per key, a newer one taking
 * its key's place: what waits for a subscriber whose stream has fallen behind. Past
 * saturation every notification waits here for seconds, so it must not cost an object of
 * its own, which the garbage collector would copy while it waits: a notification is one
 * reference in a ring, found by its key through an open-addressing index of ring slots. A
 * notification taken out of the middle leaves a hole that the ring skips and that goes
 * when the ring is next compacted. Not thread-safe.
 */
final class KeyedRing implements Iterable<OutboundNotification> {

	private static final int INITIAL_CAPACITY = 32;

	/** A power of two; holes are {@code null}. */
	private @Nullable OutboundNotification[] slots = new OutboundNotification[INITIAL_CAPACITY];

	/**
	 * Ring slot + 1 of each notification, by its key's hash with linear probing; 0 is
	 * free. Twice the ring's length, so that probes stay short.
	 */
	private int[] index = new int[2 * INITIAL_CAPACITY];

	/** The position of the first notification; positions count up and wrap around. */
	private int head;

	/** The position the next notification takes. */
	private int tail;

	private int size;

	int size() {
		return this.size;
	}

	boolean isEmpty() {
		return this.size == 0;
	}

	/**
	 * Queue a notification last, or let it take the place of the one with the same key.
	 * @return the one it replaced, or {@code null} if it was queued last
	 */
	@Nullable OutboundNotification put(OutboundNotification notification) {
		int found = find(notification.key());
		if (found >= 0) {
			int slot = this.index[found] - 1;
			OutboundNotification replaced = this.slots[slot];
			this.slots[slot] = notification;
			return replaced;
		}
		int free = ~found;
		if (this.tail - this.head == this.slots.length) {
			// Holes are only reclaimed here: half of them or more and the ring keeps its
			// size.
			resize((this.size <= this.slots.length / 2) ? this.slots.length : 2 * this.slots.length);
			free = freeFor(notification.key());
		}
		int slot = this.tail & (this.slots.length - 1);
		this.slots[slot] = notification;
		this.tail++;
		this.size++;
		this.index[free] = slot + 1;
		return null;
	}

	@Nullable OutboundNotification get(OutboundNotification.Key key) {
		int found = find(key);
		return (found >= 0) ? this.slots[this.index[found] - 1] : null;
	}

	@Nullable OutboundNotification peekFirst() {
		return (this.size == 0) ? null : this.slots[this.head & (this.slots.length - 1)];
	}

	@Nullable OutboundNotification pollFirst() {
		OutboundNotification first = peekFirst();
		if (first != null) {
			remove(first.key());
		}
		return first;
	}

	void remove(OutboundNotification.Key key) {
		int found = find(key);
		if (found < 0) {
			return;
		}
		this.slots[this.index[found] - 1] = null;
		delete(found);
		this.size--;
		int mask = this.slots.length - 1;
		while (this.head != this.tail && this.slots[this.head & mask] == null) {
			this.head++;
		}
	}

	void removeIf(Predicate<OutboundNotification> filter) {
		for (Iterator<OutboundNotification> notifications = iterator(); notifications.hasNext();) {
			if (filter.test(notifications.next())) {
				notifications.remove();
			}
		}
	}

	void clear() {
		Arrays.fill(this.slots, null);
		Arrays.fill(this.index, 0);
		this.head = 0;
		this.tail = 0;
		this.size = 0;
	}

	/** In order; {@link Iterator#remove()} removes. */
	@Override
	public Iterator<OutboundNotification> iterator() {
		return new Iterator<>() {

			private int next = skipHoles(KeyedRing.this.head);

			private @Nullable OutboundNotification last;

			@Override
			public boolean hasNext() {
				return this.next != KeyedRing.this.tail;
			}

			@Override
			public OutboundNotification next() {
				if (!hasNext()) {
					throw new NoSuchElementException();
				}
				OutboundNotification current = KeyedRing.this.slots[this.next & (KeyedRing.this.slots.length - 1)];
				if (current == null) {
					throw new NoSuchElementException();
				}
				this.next = skipHoles(this.next + 1);
				this.last = current;
				return current;
			}

			@Override
			public void remove() {
				OutboundNotification current = this.last;
				if (current == null) {
					throw new IllegalStateException();
				}
				this.last = null;
				KeyedRing.this.remove(current.key());
			}

		};
	}

	private int skipHoles(int position) {
		int mask = this.slots.length - 1;
		while (position != this.tail && this.slots[position & mask] == null) {
			position++;
		}
		return position;
	}

	/**
	 * Where in the index the key's notification is or, if none waits, the complement
	 * ({@code ~}) of the free entry where the search ended, so that a put probes once.
	 */
	private int find(OutboundNotification.Key key) {
		int mask = this.index.length - 1;
		int at = home(key);
		for (; this.index[at] != 0; at = (at + 1) & mask) {
			OutboundNotification waiting = this.slots[this.index[at] - 1];
			if (waiting != null && waiting.key().equals(key)) {
				return at;
			}
		}
		return ~at;
	}

	/** The free index entry for a key that is not in the index. */
	private int freeFor(OutboundNotification.Key key) {
		int mask = this.index.length - 1;
		int at = home(key);
		while (this.index[at] != 0) {
			at = (at + 1) & mask;
		}
		return at;
	}

	/**
	 * Free an index entry, moving back those after it that would otherwise no longer be
	 * found from their home (linear probing has no tombstones).
	 */
	private void delete(int at) {
		int mask = this.index.length - 1;
		int free = at;
		for (int next = (at + 1) & mask; this.index[next] != 0; next = (next + 1) & mask) {
			OutboundNotification waiting = this.slots[this.index[next] - 1];
			int home = (waiting != null) ? home(waiting.key()) : next;
			if (((next - home) & mask) >= ((next - free) & mask)) {
				this.index[free] = this.index[next];
				free = next;
			}
		}
		this.index[free] = 0;
	}

	private int home(OutboundNotification.Key key) {
		int hash = key.hashCode();
		return (hash ^ (hash >>> 16)) & (this.index.length - 1);
	}

	/** Lay the notifications out again from slot 0, without holes. */
	private void resize(int capacity) {
		OutboundNotification[] old = this.slots;
		int oldMask = old.length - 1;
		int oldHead = this.head;
		int oldTail = this.tail;
		this.slots = new OutboundNotification[capacity];
		this.index = new int[2 * capacity];
		this.head = 0;
		this.tail = 0;
		for (int position = oldHead; position != oldTail; position++) {
			OutboundNotification waiting = old[position & oldMask];
			if (waiting != null) {
				this.slots[this.tail] = waiting;
				this.index[freeFor(waiting.key())] = this.tail + 1;
				this.tail++;
			}
		}
	}

}
