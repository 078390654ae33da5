package io.github.mcpsubscriptions.benchmarks.load;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntPredicate;

/**
 * How soon the newest state reached everyone: for each resource number published in the
 * window, the time from its last change's publication to its arrival at every subscriber
 * of it. What a subscriber cares about is the latest state; a server that coalesces may
 * rightly skip the changes in between, but never the last one.
 * <p>
 * The arrival of the last change at a subscriber is taken as the arrival of the last
 * notification of that resource it received, if that came after the change was published:
 * a server that keeps the last change (coalescing replaces, never drops) sends one
 * notification decided after it, and none after that, so the last one received is it.
 * This needs nothing from the server's notifications but the resource's URI, so it
 * measures any server. A subscriber whose last notification of the resource came before
 * the change was published never got it (counted as missing).
 * <p>
 * Lock-free: each subscriber's stream records its own arrivals.
 */
final class Freshness {

	/** Above this many subscriber × resource slots the figure is not kept (memory). */
	static final long MAX_SLOTS = 32_000_000;

	private final int subscribers;

	private final int numbers;

	/** Per subscriber and resource number: when its last notification arrived (nanos). */
	private final AtomicLongArray arrivals;

	/**
	 * The arrivals of the subscribers' last changes.
	 * @param subscribers how many subscribers
	 * @param numbers resource numbers are below this
	 */
	Freshness(int subscribers, int numbers) {
		this.subscribers = subscribers;
		this.numbers = numbers;
		this.arrivals = new AtomicLongArray(Math.multiplyExact(subscribers, numbers));
	}

	/** Whether the figure fits in memory for a run of this size. */
	static boolean fits(int subscribers, long numbers) {
		return (long) subscribers * numbers <= MAX_SLOTS;
	}

	/**
	 * A notification of resource number n arrived at subscriber s.
	 * @param subscriber the subscriber's number
	 * @param n the resource number
	 * @param nanos when ({@link System#nanoTime()})
	 */
	void arrived(int subscriber, long n, long nanos) {
		if (subscriber >= 0 && subscriber < this.subscribers && n >= 0 && n < this.numbers) {
			this.arrivals.set(subscriber * this.numbers + (int) n, nanos);
		}
	}

	/**
	 * Whether every subscriber of every resource has received a notification after the
	 * resource's last change.
	 */
	boolean complete(long[] publishedAt, long fromNumber, long toNumber, IntPredicate ready, Subscriptions subscribed) {
		for (int s = 0; s < this.subscribers; s++) {
			if (!ready.test(s)) {
				continue;
			}
			for (long n = fromNumber; n <= toNumber; n++) {
				long at = publishedAt[(int) n];
				if (at != 0 && subscribed.test(s, n) && this.arrivals.get(s * this.numbers + (int) n) <= at) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * The figure: p50, p99 and max in milliseconds over every (subscriber, resource)
	 * pair, how many pairs there were, and how many never got the last change.
	 * @param publishedAt when each number's last change was published (nanos; 0: never)
	 * @param fromNumber the window's first resource number
	 * @param toNumber the window's last resource number
	 * @param ready whether a subscriber was set up (others are not counted)
	 * @param subscribed whether a subscriber is subscribed to a resource number
	 * @return the figure, as JSON-ready values
	 */
	Map<String, Object> figure(long[] publishedAt, long fromNumber, long toNumber, IntPredicate ready,
			Subscriptions subscribed) {
		long[] samples = new long[16];
		int count = 0;
		long missing = 0;
		for (int s = 0; s < this.subscribers; s++) {
			if (!ready.test(s)) {
				continue;
			}
			for (long n = fromNumber; n <= toNumber; n++) {
				long at = publishedAt[(int) n];
				if (at == 0 || !subscribed.test(s, n)) {
					continue;
				}
				long arrived = this.arrivals.get(s * this.numbers + (int) n);
				if (arrived <= at) {
					missing++;
					continue;
				}
				if (count == samples.length) {
					samples = Arrays.copyOf(samples, count * 2);
				}
				samples[count++] = arrived - at;
			}
		}
		Arrays.sort(samples, 0, count);
		Map<String, Object> figure = new LinkedHashMap<>();
		figure.put("p50", (count > 0) ? LoadHarness.round(percentile(samples, count, 50) / 1e6) : null);
		figure.put("p99", (count > 0) ? LoadHarness.round(percentile(samples, count, 99) / 1e6) : null);
		figure.put("max", (count > 0) ? LoadHarness.round(samples[count - 1] / 1e6) : null);
		figure.put("pairs", count + missing);
		figure.put("missing", missing);
		return figure;
	}

	private static long percentile(long[] sorted, int count, double percentile) {
		int rank = (int) Math.ceil(count * percentile / 100.0);
		return sorted[Math.max(0, Math.min(count, rank) - 1)];
	}

	/** Whether subscriber s is subscribed to resource number n. */
	@FunctionalInterface
	interface Subscriptions {

		boolean test(int subscriber, long n);

	}

}
