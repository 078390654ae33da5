package io.github.mcpsubscriptions.server;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Limits how often one client opens listen streams: a token bucket per client (its
 * principal, else its address) that holds {@code requests} listens and refills at
 * {@code requests} per {@code window}. A client that reconnects after a network blip uses
 * one or two of them; a client that re-listens in a loop runs out. Only the most recently
 * seen {@code maxClients} clients are tracked, so memory stays bounded whatever the
 * number of addresses; a client forgotten that way starts again with a full bucket.
 */
final class ListenRateLimiter {

	private final int requests;

	private final long windowMillis;

	private final Clock clock;

	private final Map<String, Bucket> buckets;

	/**
	 * Create a limiter.
	 * @param requests how many listens a client may open in a burst and per window; zero
	 * for no limit
	 * @param window the window
	 * @param maxClients the most clients tracked at once
	 * @param clock the time source
	 */
	ListenRateLimiter(int requests, Duration window, int maxClients, Clock clock) {
		this.requests = requests;
		this.windowMillis = Math.max(1, window.toMillis());
		this.clock = clock;
		this.buckets = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
				return size() > maxClients;
			}

		};
	}

	/**
	 * Take one listen from a client's bucket.
	 * @param client the client's key
	 * @return zero when allowed, else how long until the next listen is allowed
	 */
	synchronized Duration acquire(String client) {
		if (this.requests <= 0) {
			return Duration.ZERO;
		}
		long now = this.clock.millis();
		Bucket bucket = this.buckets.computeIfAbsent(client, (key) -> new Bucket(this.requests, now));
		double refill = (double) Math.max(0, now - bucket.updated) * this.requests / this.windowMillis;
		bucket.tokens = Math.min(this.requests, bucket.tokens + refill);
		bucket.updated = now;
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			return Duration.ZERO;
		}
		return Duration.ofMillis((long) Math.ceil((1 - bucket.tokens) * this.windowMillis / this.requests));
	}

	/**
	 * How many clients are tracked.
	 * @return the count
	 */
	synchronized int getTrackedClients() {
		return this.buckets.size();
	}

	private static final class Bucket {

		private double tokens;

		private long updated;

		Bucket(double tokens, long updated) {
			this.tokens = tokens;
			this.updated = updated;
		}

	}

}
