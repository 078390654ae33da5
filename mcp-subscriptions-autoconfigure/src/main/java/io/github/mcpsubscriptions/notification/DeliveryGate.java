package io.github.mcpsubscriptions.notification;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Lets at most a fixed number of drains run at once, so that delivery under saturation
 * keeps to its share of the cores and the application's own request threads keep theirs.
 * <p>
 * A drain that writes to a client which stopped reading blocks in its write; it must not
 * keep the others waiting (a blocked write on one stream never stalls the others). A
 * place held for longer than the lease is therefore given to the next drain that waits:
 * writing a batch of notifications takes microseconds of CPU, so a drain that held its
 * place that long is blocked on a socket (or was descheduled), not computing.
 * <p>
 * Places go to the waiting drains first come, first served: a place given back goes
 * straight to the oldest waiter (the drain giving it back cannot take it again at once,
 * nor can one arriving meanwhile), and only the oldest waiter takes a place over past its
 * lease. A drain therefore waits for at most as many turns as there were drains waiting
 * before it; with a free-for-all at saturation, one drain was overtaken by thousands of
 * later ones.
 * <p>
 * A {@link ReentrantLock}, not a monitor: waiting never pins a virtual thread's carrier.
 */
final class DeliveryGate {

	private final ReentrantLock lock = new ReentrantLock();

	/** The drains waiting for a place, oldest first. */
	private final ArrayDeque<Waiter> queue = new ArrayDeque<>();

	/** Per place: the ticket of the drain holding it, or 0 when free. */
	private final long[] holders;

	/** Per place: when its holder took it (nanoseconds). */
	private final long[] since;

	private final long leaseNanos;

	private final LongSupplier nanoTime;

	private final LongAdder overtaken = new LongAdder();

	private long nextTicket = 1;

	/** How many drains wait for a place; changed with the lock held, read without. */
	private volatile int waiting;

	/**
	 * Create a gate.
	 * @param parallelism how many drains may run at once
	 * @param leaseNanos how long a place may be held before the next drain that waits
	 * takes it over
	 * @param nanoTime the clock
	 */
	DeliveryGate(int parallelism, long leaseNanos, LongSupplier nanoTime) {
		if (parallelism < 1) {
			throw new IllegalArgumentException("The delivery parallelism must be at least 1, was " + parallelism);
		}
		this.holders = new long[parallelism];
		this.since = new long[parallelism];
		this.leaseNanos = leaseNanos;
		this.nanoTime = nanoTime;
	}

	/**
	 * Wait for a place, behind every drain that waits already.
	 * @return the ticket to give back to {@link #exit(long)}
	 * @throws InterruptedException when interrupted while waiting (shutting down)
	 */
	long enter() throws InterruptedException {
		this.lock.lock();
		try {
			long ticket = this.nextTicket++;
			if (this.queue.isEmpty()) {
				if (tryTake(ticket)) {
					return ticket;
				}
			}
			else {
				handOverExpired();
			}
			Waiter waiter = new Waiter(ticket, this.lock.newCondition());
			this.queue.addLast(waiter);
			this.waiting = this.queue.size();
			try {
				awaitPlace(waiter);
			}
			catch (InterruptedException ex) {
				leave(waiter);
				throw ex;
			}
			return ticket;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Wait until a place is handed over. Only the oldest waiter watches the leases (with
	 * a timed wait); the others wait to be handed a place or to become the oldest. Called
	 * with the lock held.
	 */
	private void awaitPlace(Waiter waiter) throws InterruptedException {
		assert this.lock.isHeldByCurrentThread();
		while (!waiter.granted) {
			if (this.queue.peekFirst() != waiter) {
				waiter.turn.await();
				continue;
			}
			long now = this.nanoTime.getAsLong();
			int oldest = oldestPlace();
			long held = now - this.since[oldest];
			if (this.holders[oldest] == 0 || held >= this.leaseNanos) {
				if (this.holders[oldest] != 0) {
					// Its holder is blocked on a socket: it no longer counts.
					this.overtaken.increment();
				}
				this.queue.pollFirst();
				grant(waiter, oldest, now);
				return;
			}
			waiter.turn.awaitNanos(this.leaseNanos - held);
		}
	}

	/**
	 * Take a free place, or one held past its lease, when nobody waits. Called with the
	 * lock held.
	 */
	private boolean tryTake(long ticket) {
		assert this.lock.isHeldByCurrentThread();
		long now = this.nanoTime.getAsLong();
		int oldest = oldestPlace();
		if (this.holders[oldest] == 0) {
			take(oldest, ticket, now);
			return true;
		}
		if (now - this.since[oldest] >= this.leaseNanos) {
			// Its holder is blocked on a socket: it no longer counts.
			this.overtaken.increment();
			take(oldest, ticket, now);
			return true;
		}
		return false;
	}

	/**
	 * Places held past their lease go to the oldest waiters, which would take them over
	 * when their timed wait ends: a drain arriving meanwhile must not get there first.
	 * Called with the lock held.
	 */
	private void handOverExpired() {
		assert this.lock.isHeldByCurrentThread();
		long now = this.nanoTime.getAsLong();
		while (!this.queue.isEmpty()) {
			int oldest = oldestPlace();
			if (this.holders[oldest] != 0 && now - this.since[oldest] < this.leaseNanos) {
				return;
			}
			if (this.holders[oldest] != 0) {
				this.overtaken.increment();
			}
			grant(this.queue.pollFirst(), oldest, now);
		}
	}

	/**
	 * A free place if there is one, else the one held longest. Called with the lock held.
	 */
	private int oldestPlace() {
		assert this.lock.isHeldByCurrentThread();
		int oldest = 0;
		for (int i = 0; i < this.holders.length; i++) {
			if (this.holders[i] == 0) {
				return i;
			}
			if (this.since[i] < this.since[oldest]) {
				oldest = i;
			}
		}
		return oldest;
	}

	/**
	 * The place is the waiter's, which has left the queue: the next oldest watches the
	 * leases from now on. Called with the lock held.
	 */
	private void grant(Waiter waiter, int place, long now) {
		assert this.lock.isHeldByCurrentThread();
		take(place, waiter.ticket, now);
		waiter.granted = true;
		waiter.turn.signal();
		this.waiting = this.queue.size();
		Waiter next = this.queue.peekFirst();
		if (next != null) {
			next.turn.signal();
		}
	}

	/**
	 * An interrupted waiter goes: out of the queue, or, if a place was handed to it
	 * meanwhile, giving that place on. Called with the lock held.
	 */
	private void leave(Waiter waiter) {
		assert this.lock.isHeldByCurrentThread();
		if (waiter.granted) {
			release(waiter.ticket);
			return;
		}
		boolean oldest = this.queue.peekFirst() == waiter;
		this.queue.remove(waiter);
		this.waiting = this.queue.size();
		Waiter next = this.queue.peekFirst();
		if (oldest && next != null) {
			next.turn.signal();
		}
	}

	private void take(int place, long ticket, long now) {
		this.holders[place] = ticket;
		this.since[place] = now;
	}

	/**
	 * Give a place back (nothing, if another drain has taken it over meanwhile): it goes
	 * to the oldest waiter at once.
	 * @param ticket from {@link #enter()}
	 */
	void exit(long ticket) {
		this.lock.lock();
		try {
			release(ticket);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Called with the lock held. */
	private void release(long ticket) {
		assert this.lock.isHeldByCurrentThread();
		for (int i = 0; i < this.holders.length; i++) {
			if (this.holders[i] == ticket) {
				Waiter next = this.queue.pollFirst();
				if (next != null) {
					grant(next, i, this.nanoTime.getAsLong());
				}
				else {
					this.holders[i] = 0;
				}
				return;
			}
		}
	}

	/**
	 * Whether drains wait for a place: delivery is saturated.
	 * @return whether any does
	 */
	boolean hasWaiters() {
		return this.waiting > 0;
	}

	/**
	 * How many drains wait for a place.
	 * @return the count
	 */
	int getWaiting() {
		return this.waiting;
	}

	/**
	 * How many drains may run at once.
	 * @return the parallelism
	 */
	int getParallelism() {
		return this.holders.length;
	}

	/**
	 * How often a place was taken over from a drain that held it past the lease.
	 * @return the count
	 */
	long getOvertaken() {
		return this.overtaken.sum();
	}

	/**
	 * A drain waiting for a place, with a condition of its own: a hand-over wakes only
	 * it.
	 */
	private static final class Waiter {

		final long ticket;

		final Condition turn;

		/** Set with the lock held, once a place is this drain's. */
		boolean granted;

		Waiter(long ticket, Condition turn) {
			this.ticket = ticket;
			this.turn = turn;
		}

	}

}
