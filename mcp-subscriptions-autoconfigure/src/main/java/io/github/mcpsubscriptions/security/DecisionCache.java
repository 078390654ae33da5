package io.github.mcpsubscriptions.security;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Access decisions kept for a bounded time, so that a change fanned out to many
 * subscribers does not evaluate the same rule for the same authentication again and
 * again. Bounded in size too: when full, it starts over rather than grow.
 */
final class DecisionCache {

	private final long ttlNanos;

	private final int maxSize;

	private final LongSupplier nanoTime;

	private final Map<Object, Decision> decisions = new ConcurrentHashMap<>();

	DecisionCache(Duration ttl, int maxSize, LongSupplier nanoTime) {
		this.ttlNanos = ttl.toNanos();
		this.maxSize = maxSize;
		this.nanoTime = nanoTime;
	}

	boolean isEnabled() {
		return this.ttlNanos > 0 && this.maxSize > 0;
	}

	boolean decide(Object key, BooleanSupplier evaluation) {
		if (!isEnabled()) {
			return evaluation.getAsBoolean();
		}
		long now = this.nanoTime.getAsLong();
		Decision cached = this.decisions.get(key);
		if (cached != null && now - cached.decidedAt() < this.ttlNanos) {
			return cached.granted();
		}
		boolean granted = evaluation.getAsBoolean();
		if (this.decisions.size() >= this.maxSize) {
			this.decisions.clear();
		}
		this.decisions.put(key, new Decision(granted, now));
		return granted;
	}

	int size() {
		return this.decisions.size();
	}

	private record Decision(boolean granted, long decidedAt) {
	}

}
