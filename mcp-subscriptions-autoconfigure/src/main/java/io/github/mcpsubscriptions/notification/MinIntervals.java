package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The minimum interval between two notifications of one subscription: per subscribed-URI
 * pattern ({@code *} matches any characters; the first pattern that matches wins), else
 * the default. Zero means no limit.
 */
public final class MinIntervals implements Function<String, Duration> {

	private final Duration defaultInterval;

	private final List<Map.Entry<Pattern, Duration>> byPattern = new ArrayList<>();

	/**
	 * Create the intervals.
	 * @param defaultInterval the interval for subscriptions no pattern matches
	 * @param byPattern intervals by subscribed-URI pattern, in order
	 */
	public MinIntervals(Duration defaultInterval, Map<String, Duration> byPattern) {
		this.defaultInterval = requireNotNegative(defaultInterval, "default");
		byPattern.forEach((pattern, interval) -> this.byPattern.add(Map.entry(compile(pattern),
				requireNotNegative(interval, pattern))));
	}

	private static Pattern compile(String pattern) {
		StringBuilder regex = new StringBuilder();
		for (String part : pattern.split("\\*", -1)) {
			if (!regex.isEmpty()) {
				regex.append(".*");
			}
			regex.append(Pattern.quote(part));
		}
		return Pattern.compile(regex.toString());
	}

	private static Duration requireNotNegative(Duration interval, String what) {
		if (interval.isNegative()) {
			throw new IllegalArgumentException("The minimum interval for " + what + " must not be negative");
		}
		return interval;
	}

	@Override
	public Duration apply(String subscribedUri) {
		for (Map.Entry<Pattern, Duration> entry : this.byPattern) {
			if (entry.getKey().matcher(subscribedUri).matches()) {
				return entry.getValue();
			}
		}
		return this.defaultInterval;
	}

}
