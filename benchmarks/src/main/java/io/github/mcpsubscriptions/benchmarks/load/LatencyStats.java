package io.github.mcpsubscriptions.benchmarks.load;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts received notifications and their publish-to-receive latencies, in buckets of 20
 * microseconds up to 30 seconds (later ones count in the last bucket; the maximum is
 * exact). Lock-free: the HTTP client's threads record concurrently.
 */
final class LatencyStats {

	private static final long BUCKET_NANOS = 20_000;

	private static final int BUCKETS = 1_500_000;

	/** The timeline's seconds of publication; per second, buckets of 10 ms up to 10 s. */
	private static final int TIMELINE_SECONDS = 120;

	private static final long TIMELINE_BUCKET_NANOS = 10_000_000;

	private static final int TIMELINE_BUCKETS = 1_000;

	private final AtomicLongArray buckets = new AtomicLongArray(BUCKETS);

	private final AtomicLong count = new AtomicLong();

	private final AtomicLong max = new AtomicLong();

	private final AtomicLong unmatched = new AtomicLong();

	private final AtomicLong lastReceiveNanos = new AtomicLong();

	private final AtomicLongArray timeline = new AtomicLongArray(TIMELINE_SECONDS * TIMELINE_BUCKETS);

	/**
	 * When the measured window's first change was published, or Long.MIN_VALUE before.
	 */
	private volatile long windowStart = Long.MIN_VALUE;

	void record(long latencyNanos, long receivedAt) {
		long latency = Math.max(0, latencyNanos);
		this.buckets.incrementAndGet((int) Math.min(BUCKETS - 1, latency / BUCKET_NANOS));
		this.count.incrementAndGet();
		this.max.accumulateAndGet(latency, Math::max);
		this.lastReceiveNanos.accumulateAndGet(receivedAt, Math::max);
		long start = this.windowStart;
		if (start != Long.MIN_VALUE) {
			long second = (receivedAt - latency - start) / 1_000_000_000L;
			if (second >= 0 && second < TIMELINE_SECONDS) {
				int bucket = (int) Math.min(TIMELINE_BUCKETS - 1, latency / TIMELINE_BUCKET_NANOS);
				this.timeline.incrementAndGet((int) second * TIMELINE_BUCKETS + bucket);
			}
		}
	}

	/**
	 * Start the timeline: latencies are also counted by the second of the window their
	 * change was published in.
	 * @param firstPublishNanos when the window's first change is published
	 */
	void startWindow(long firstPublishNanos) {
		this.windowStart = firstPublishNanos;
	}

	/**
	 * The p99 of the changes published in each second of the window, in milliseconds (to
	 * 10 ms, at most 10 s): where in the window a tail comes from.
	 * @param seconds the window's length
	 * @return one value per second, NaN for a second without samples
	 */
	double[] p99BySecond(int seconds) {
		double[] result = new double[Math.min(seconds, TIMELINE_SECONDS)];
		for (int s = 0; s < result.length; s++) {
			int from = s * TIMELINE_BUCKETS;
			long total = 0;
			for (int b = 0; b < TIMELINE_BUCKETS; b++) {
				total += this.timeline.get(from + b);
			}
			int bucket = bucketAt(this.timeline, from, TIMELINE_BUCKETS, total, 99);
			result[s] = (bucket >= 0) ? (bucket + 1) * TIMELINE_BUCKET_NANOS / 1e6 : Double.NaN;
		}
		return result;
	}

	/**
	 * The bucket, counted from {@code from}, that holds the percentile of a histogram.
	 * @return its index among the {@code length} buckets, or -1 when they hold fewer than
	 * the percentile's rank of {@code total} (nothing, or counts still being recorded)
	 */
	private static int bucketAt(AtomicLongArray histogram, int from, int length, long total, double percentile) {
		if (total == 0) {
			return -1;
		}
		long rank = (long) Math.ceil(total * percentile / 100.0);
		long seen = 0;
		for (int b = 0; b < length; b++) {
			seen += histogram.get(from + b);
			if (seen >= rank) {
				return b;
			}
		}
		return -1;
	}

	/**
	 * Forget everything recorded: after a warm-up, once its notifications have arrived.
	 */
	void reset() {
		for (int i = 0; i < BUCKETS; i++) {
			this.buckets.set(i, 0);
		}
		this.count.set(0);
		this.max.set(0);
		this.unmatched.set(0);
		this.lastReceiveNanos.set(0);
	}

	/**
	 * A notification whose resource number the harness did not publish (or could not
	 * read).
	 */
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
		int bucket = bucketAt(this.buckets, 0, BUCKETS, total, percentile);
		return (bucket >= 0) ? Math.min((bucket + 1) * BUCKET_NANOS, this.max.get()) / 1e6 : maxMillis();
	}

}
