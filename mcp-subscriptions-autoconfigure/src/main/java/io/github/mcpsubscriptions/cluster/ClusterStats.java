package io.github.mcpsubscriptions.cluster;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this node's part of the cluster backplane has done, for meters and health.
 *
 * @since 0.1.0
 */
public class ClusterStats {

	private final LongAdder published = new LongAdder();

	private final LongAdder received = new LongAdder();

	private final LongAdder errors = new LongAdder();

	private final LongAdder lagNanos = new LongAdder();

	private final LongAdder logGaps = new LongAdder();

	private final LongAdder redisRestarts = new LongAdder();

	private final AtomicLong rejectedPrincipals = new AtomicLong();

	private final LongAdder captureRewinds = new LongAdder();

	private volatile long lastLagNanos;

	private volatile boolean connected = true;

	void published() {
		this.published.increment();
	}

	void received(Duration lag) {
		long nanos = Math.max(0, lag.toNanos());
		this.received.increment();
		this.lagNanos.add(nanos);
		this.lastLagNanos = nanos;
	}

	void error() {
		this.errors.increment();
	}

	void connected(boolean connected) {
		this.connected = connected;
	}

	void logGap() {
		this.logGaps.increment();
	}

	void redisRestarted() {
		this.redisRestarts.increment();
	}

	/**
	 * Count an authentication of a log record that was rejected.
	 * @return how many have been, this one included
	 */
	long principalRejected() {
		return this.rejectedPrincipals.incrementAndGet();
	}

	void captureRewound() {
		this.captureRewinds.increment();
	}

	/**
	 * How many authentications read from the log were rejected (a type that no
	 * authentication consists of, past the bounds, or unreadable); their records' names
	 * judged instead.
	 * @return the count
	 */
	public long getRejectedPrincipals() {
		return this.rejectedPrincipals.get();
	}

	/**
	 * How many times a captured database's positions went back behind what was appended
	 * (a restore, or a failover that lost transactions), and its captured templates'
	 * subscribers were told to resync.
	 * @return the count
	 */
	public long getCaptureRewinds() {
		return this.captureRewinds.sum();
	}

	/**
	 * How many times this node found the change log trimmed past its position before it
	 * read on, and told its subscribers to re-read.
	 * @return the count
	 */
	public long getLogGaps() {
		return this.logGaps.sum();
	}

	/**
	 * How many times this node found that Redis restarted under it (or lost the change
	 * log), and told its subscribers to re-read.
	 * @return the count
	 */
	public long getRedisRestarts() {
		return this.redisRestarts.sum();
	}

	/**
	 * How many changes this node appended to the log.
	 * @return the count
	 */
	public long getPublished() {
		return this.published.sum();
	}

	/**
	 * How many changes this node read from the log (its own included).
	 * @return the count
	 */
	public long getReceived() {
		return this.received.sum();
	}

	/**
	 * How many Redis operations failed.
	 * @return the count
	 */
	public long getErrors() {
		return this.errors.sum();
	}

	/**
	 * The sum of the lags from publication to receipt.
	 * @return the total lag in nanoseconds
	 */
	public long getTotalLagNanos() {
		return this.lagNanos.sum();
	}

	/**
	 * The lag of the last change received.
	 * @return the lag in nanoseconds
	 */
	public long getLastLagNanos() {
		return this.lastLagNanos;
	}

	/**
	 * Whether the last Redis operation of the log reader succeeded.
	 * @return whether Redis is reachable
	 */
	public boolean isConnected() {
		return this.connected;
	}

}
