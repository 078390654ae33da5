package io.github.mcpsubscriptions.benchmarks.load;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts received notifications and their publish-to-receive latencies, in buckets of 20
 * microseconds up to 30 seconds (later ones count in the last bucket; the maximum is exact).
 * Lock-free: the HTTP client's threads record concurrently.
 */
final class LatencyStats {

	private static final long BUCKET_NANOS = 20_000;

	private static final int BUCKETS = 1_500_000;

	private final AtomicLongArray buckets = new AtomicLongArray(BUCKETS);

	private final AtomicLong count = new AtomicLong();

	private final AtomicLong max = new AtomicLong();

	private final AtomicLong unmatched = new AtomicLong();

	private final AtomicLong lastReceiveNanos = new AtomicLong();

	void record(long latencyNanos, long receivedAt) {
		long latency = Math.max(0, latencyNanos);
		this.buckets.incrementAndGet((int) Math.min(BUCKETS - 1, latency / BUCKET_NANOS));
		this.count.incrementAndGet();
		this.max.accumulateAndGet(latency, Math::max);
		this.lastReceiveNanos.accumulateAndGet(receivedAt, Math::max);
	}

	/** Forget everything recorded: after a warm-up, once its notifications have arrived. */
	void reset() {
		for (int i = 0; i < BUCKETS; i++) {
			this.buckets.set(i, 0);
		}
		this.count.set(0);
		this.max.set(0);
		this.unmatched.set(0);
		this.lastReceiveNanos.set(0);
	}

	/** A notification whose resource number the harness did not publish (or could not read). */
	void unmatched() {
		this.unmatched.incrementAndGet();
	}

	long count() {
		return this.count.get();
	}

	long unmatchedCount() {
		return this.unmatched.get();
	}

	long lastReceiveNanos() {
		return this.lastReceiveNanos.get();
	}

	double maxMillis() {
		return this.max.get() / 1e6;
	}

	/**
	 * A percentile, as the upper edge of its bucket.
	 * @param percentile 0 to 100
	 * @return milliseconds, or NaN with no samples
	 */
	double percentileMillis(double percentile) {
		long total = this.count.get();
		if (total == 0) {
			return Double.NaN;
		}
		long rank = (long) Math.ceil(total * percentile / 100.0);
		long seen = 0;
		for (int i = 0; i < BUCKETS; i++) {
			seen += this.buckets.get(i);
			if (seen >= rank) {
				return Math.min((i + 1) * BUCKET_NANOS, this.max.get()) / 1e6;
			}
		}
		return maxMillis();
	}

}
