package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The minimum interval between two notifications of one subscription: per subscribed-URI
 * pattern ({@code *} matches any characters; the first pattern that matches wins), else
 * the default. Zero means no limit.
 *
 * @since 0.1.0
 */
final class MinIntervals implements Function<String, Duration> {

	private final Duration defaultInterval;

	private final List<Map.Entry<StarPattern, Duration>> byPattern = new ArrayList<>();

	/** Asked for every outbox made: computed once. */
	private final boolean unlimited;

	/**
	 * Create the intervals.
	 * @param defaultInterval the interval for subscriptions no pattern matches
	 * @param byPattern intervals by subscribed-URI pattern, in order
	 */
	MinIntervals(Duration defaultInterval, Map<String, Duration> byPattern) {
		this.defaultInterval = requireNotNegative(defaultInterval, "default");
		byPattern.forEach((pattern, interval) -> this.byPattern
			.add(Map.entry(new StarPattern(pattern), requireNotNegative(interval, pattern))));
		this.unlimited = defaultInterval.isZero() && byPattern.values().stream().allMatch(Duration::isZero);
	}

	private static Duration requireNotNegative(Duration interval, String what) {
		if (interval.isNegative()) {
			throw new IllegalArgumentException("The minimum interval for " + what + " must not be negative");
		}
		return interval;
	}

	/**
	 * Whether no subscription has a minimum interval, so that no notification is ever
	 * held back.
	 * @return whether every interval is zero
	 */
	boolean isUnlimited() {
		return this.unlimited;
	}

	@Override
	public Duration apply(String subscribedUri) {
		for (Map.Entry<StarPattern, Duration> entry : this.byPattern) {
			if (entry.getKey().matches(subscribedUri)) {
				return entry.getValue();
			}
		}
		return this.defaultInterval;
	}

	/**
	 * A pattern whose only wildcard is {@code *} (any characters). Matched without
	 * backtracking: the URIs are the clients', and a regex with several {@code .*} takes
	 * cubic time on a long one. With {@code *} alone, taking each literal part at its
	 * leftmost place after the previous one is enough.
	 */
	private static final class StarPattern {

		private final String[] parts;

		StarPattern(String pattern) {
			this.parts = pattern.split("\\*", -1);
		}

		boolean matches(String text) {
			String first = this.parts[0];
			if (this.parts.length == 1) {
				return text.equals(first);
			}
			String last = this.parts[this.parts.length - 1];
			if (text.length() < first.length() + last.length() || !text.startsWith(first) || !text.endsWith(last)) {
				return false;
			}
			int from = first.length();
			int end = text.length() - last.length();
			for (int i = 1; i < this.parts.length - 1; i++) {
				int at = text.indexOf(this.parts[i], from);
				if (at < 0 || at + this.parts[i].length() > end) {
					return false;
				}
				from = at + this.parts[i].length();
			}
			return true;
		}

	}

}
