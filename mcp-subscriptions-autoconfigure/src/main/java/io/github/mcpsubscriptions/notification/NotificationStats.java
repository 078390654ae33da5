package io.github.mcpsubscriptions.notification;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * Counts of what the dispatcher and the outboxes did, for metrics.
 *
 * @since 0.1.0
 */
public final class NotificationStats {

	final LongAdder eventsReceived = new LongAdder();

	final LongAdder sent = new LongAdder();

	final LongAdder coalesced = new LongAdder();

	final LongAdder delayed = new LongAdder();

	final LongAdder gathered = new LongAdder();

	final LongAdder heldBack = new LongAdder();

	final LongAdder filtered = new LongAdder();

	final LongAdder denied = new LongAdder();

	final LongAdder overflows = new LongAdder();

	final LongAdder droppedOnOverflow = new LongAdder();

	final LongAdder resyncsQueued = new LongAdder();

	final LongAdder stalls = new LongAdder();

	final LongAdder replays = new LongAdder();

	/** Without one, nothing reads the clock per notification. */
	private volatile @Nullable Consumer<Duration> latencyListener;

	/**
	 * Be told the time from each change's publication to its notification's write.
	 * @param listener the listener, such as a timer
	 */
	public void setLatencyListener(Consumer<Duration> listener) {
		this.latencyListener = listener;
	}

	void sent(Instant publishedAt, Clock clock) {
		this.sent.increment();
		Consumer<Duration> listener = this.latencyListener;
		if (listener != null) {
			listener.accept(Duration.between(publishedAt, clock.instant()));
		}
	}

	/** Changes received from the feed. */
	public long getEventsReceived() {
		return this.eventsReceived.sum();
	}

	/** Notifications written to streams. */
	public long getSent() {
		return this.sent.sum();
	}

	/** Notifications merged into an identical one still waiting. */
	public long getCoalesced() {
		return this.coalesced.sum();
	}

	/** Notifications held back by a rate limit (each counted once). */
	public long getDelayed() {
		return this.delayed.sum();
	}

	/**
	 * Drains that let a lone notification wait for others while delivery was saturated.
	 */
	public long getGathered() {
		return this.gathered.sum();
	}

	/** Turns of a lane of streams held back while delivery was saturated. */
	public long getHeldBack() {
		return this.heldBack.sum();
	}

	/** Notifications a {@code SubscriptionFilter} left out. */
	public long getFiltered() {
		return this.filtered.sum();
	}

	/** Notifications the access policy refused at delivery. */
	public long getDenied() {
		return this.denied.sum();
	}

	/** Outboxes that overflowed (slow consumers), their streams closed. */
	public long getOverflows() {
		return this.overflows.sum();
	}

	/** Notifications dropped when an outbox overflowed (replaced by resyncs). */
	public long getDroppedOnOverflow() {
		return this.droppedOnOverflow.sum();
	}

	/** Resync notifications queued after a gap. */
	public long getResyncsQueued() {
		return this.resyncsQueued.sum();
	}

	/** Streams given up because a write stalled longer than the write timeout. */
	public long getStalls() {
		return this.stalls.sum();
	}

	/** Reconnections served from the replay log. */
	public long getReplays() {
		return this.replays.sum();
	}

	/** Count a reconnection served from a replay log. */
	void replayed() {
		this.replays.increment();
	}

}
