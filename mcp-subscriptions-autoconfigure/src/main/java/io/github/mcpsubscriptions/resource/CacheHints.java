package io.github.mcpsubscriptions.resource;

import java.time.Duration;

/**
 * How long, and for whom, a client may cache a result (protocol 2026-07-28: the
 * {@code ttlMs} and {@code cacheScope} of list, read and discover results).
 *
 * @param ttl how long the result stays fresh; zero means immediately stale
 * @param scope who may reuse it
 * @since 0.1.0
 */
public record CacheHints(Duration ttl, Scope scope) {

	public CacheHints {
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("A cache time-to-live must not be negative, was " + ttl);
		}
	}

	/**
	 * Who may reuse a cached result.
	 *
	 * @since 0.1.0
	 */
	public enum Scope {

		/** Anyone: the result holds no user-specific data. */
		PUBLIC,

		/** Only the same authorization context. */
		PRIVATE

	}

}
