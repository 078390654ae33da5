package io.github.mcpsubscriptions.notification;

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Lets at most a fixed number of drains run at once, so that delivery under saturation
 * keeps to its share of the cores and the application's own request threads keep theirs.
 * <p>
 * A drain that writes to a client which stopped reading blocks in its write; it must not
 * keep the others waiting (a blocked write on one stream never stalls the others). A place
 * held for longer than the lease is therefore given to the next drain that waits: writing
 * a batch of notifications takes microseconds of CPU, so a drain that held its place that
 * long is blocked on a socket (or was descheduled), not computing.
 * <p>
 * A {@link ReentrantLock}, not a monitor: waiting never pins a virtual thread's carrier.
 */
final class DeliveryGate {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition freed = this.lock.newCondition();

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
	 * @param parallelism how many drains may run at once
	 * @param leaseNanos how long a place may be held before the next drain that waits takes
	 * it over
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
	 * Wait for a place.
	 * @return the ticket to give back to {@link #exit(long)}
	 * @throws InterruptedException when interrupted while waiting (shutting down)
	 */
	long enter() throws InterruptedException {
		this.lock.lock();
		try {
			long ticket = this.nextTicket++;
			while (true) {
				long now = this.nanoTime.getAsLong();
				long oldestSince = Long.MAX_VALUE;
				int oldest = -1;
				for (int i = 0; i < this.holders.length; i++) {
					if (this.holders[i] == 0) {
						take(i, ticket, now);
						return ticket;
					}
					if (this.since[i] < oldestSince) {
						oldestSince = this.since[i];
						oldest = i;
					}
				}
				long held = now - oldestSince;
				if (held >= this.leaseNanos) {
					// Its holder is blocked on a socket: it no longer counts.
					this.overtaken.increment();
					take(oldest, ticket, now);
					return ticket;
				}
				this.waiting++;
				try {
					this.freed.awaitNanos(this.leaseNanos - held);
				}
				finally {
					this.waiting--;
				}
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void take(int place, long ticket, long now) {
		this.holders[place] = ticket;
		this.since[place] = now;
	}

	/**
	 * Give a place back (nothing, if another drain has taken it over meanwhile).
	 * @param ticket from {@link #enter()}
	 */
	void exit(long ticket) {
		this.lock.lock();
		try {
			for (int i = 0; i < this.holders.length; i++) {
				if (this.holders[i] == ticket) {
					this.holders[i] = 0;
					this.freed.signal();
					return;
				}
			}
		}
		finally {
			this.lock.unlock();
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

}
