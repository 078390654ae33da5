package io.github.mcpsubscriptions.server;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of refused listen requests and of listen streams the server ended, by reason,
 * for the metrics: a refusal is answered in-band (an HTTP status and a JSON-RPC error),
 * and operators must see it without reading responses.
 *
 * @since 0.1.0
 */
public final class ListenStats {

	/**
	 * Why a listen request was refused.
	 *
	 * @since 0.1.0
	 */
	public enum Refusal {

		/** {@code mcp.listen.max-streams} or a subscription limit was reached. */
		LIMIT,

		/** The client re-listened faster than {@code mcp.listen.rate-limit.*} allows. */
		RATE_LIMIT,

		/** Listening is turned off ({@code mcp.listen.enabled=false}). */
		DISABLED;

		/** The meter tag's value. */
		public String tag() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

	}

	/**
	 * Why a listen stream ended.
	 *
	 * @since 0.1.0
	 */
	public enum End {

		/** The client closed it (or the connection broke). */
		CLIENT,

		/** It reached {@code mcp.listen.max-duration} and was completed. */
		MAX_DURATION,

		/** The server shut down and completed it. */
		SHUTDOWN,

		/** The client read too slowly: its outbox overflowed or a write stalled. */
		SLOW_CONSUMER,

		/** The credential that opened it expired. */
		TOKEN_EXPIRED;

		/** The meter tag's value. */
		public String tag() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

	}

	private final Map<Refusal, LongAdder> refusals = new EnumMap<>(Refusal.class);

	private final Map<End, LongAdder> ends = new EnumMap<>(End.class);

	ListenStats() {
		for (Refusal reason : Refusal.values()) {
			this.refusals.put(reason, new LongAdder());
		}
		for (End reason : End.values()) {
			this.ends.put(reason, new LongAdder());
		}
	}

	void refused(Refusal reason) {
		this.refusals.get(reason).increment();
	}

	void ended(End reason) {
		this.ends.get(reason).increment();
	}

	public long getRefused(Refusal reason) {
		return this.refusals.get(reason).sum();
	}

	public long getEnded(End reason) {
		return this.ends.get(reason).sum();
	}

}
