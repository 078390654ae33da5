package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Intervals by subscribed-URI pattern: first match wins, {@code *} matches any
 * characters, and a client's long URI cannot make matching slow.
 */
class MinIntervalsTests {

	private static final Duration ONE = Duration.ofSeconds(1);

	private static final Duration TWO = Duration.ofSeconds(2);

	@Test
	void firstMatchingPatternWinsElseTheDefault() {
		Map<String, Duration> byPattern = new LinkedHashMap<>();
		byPattern.put("catalog://products/*", ONE);
		byPattern.put("catalog://*", TWO);
		MinIntervals intervals = new MinIntervals(Duration.ZERO, byPattern);
		assertThat(intervals.apply("catalog://products/7")).isEqualTo(ONE);
		assertThat(intervals.apply("catalog://products")).isEqualTo(TWO);
		assertThat(intervals.apply("file:///a")).isEqualTo(Duration.ZERO);
	}

	@Test
	void unlimitedOnlyWhenEveryIntervalIsZero() {
		assertThat(new MinIntervals(Duration.ZERO, Map.of()).isUnlimited()).isTrue();
		assertThat(new MinIntervals(Duration.ZERO, Map.of("a://*", Duration.ZERO)).isUnlimited()).isTrue();
		assertThat(new MinIntervals(ONE, Map.of()).isUnlimited()).isFalse();
		assertThat(new MinIntervals(Duration.ZERO, Map.of("a://*", ONE)).isUnlimited()).isFalse();
	}

	@Test
	void agreesWithTheRegexOracle() {
		Random random = new Random(42);
		String alphabet = "ab/*";
		for (int round = 0; round < 20_000; round++) {
			String pattern = randomString(random, alphabet, 6);
			String text = randomString(random, "ab/", 8);
			MinIntervals intervals = new MinIntervals(Duration.ZERO, Map.of(pattern, ONE));
			boolean expected = Pattern.matches(oracle(pattern), text);
			assertThat(intervals.apply(text).equals(ONE)).as("%s against %s", pattern, text).isEqualTo(expected);
		}
	}

	@Test
	@Timeout(value = 5, threadMode = ThreadMode.SEPARATE_THREAD)
	void aLongClientUriCannotMakeMatchingSlow() {
		// Before: a regex with three .* took 0.5-1.5 s per call on ~2,000 characters
		// (cubic).
		// The generous bound only catches a return of that; it is no benchmark.
		MinIntervals intervals = new MinIntervals(Duration.ZERO,
				Map.of("file:///*/*/*.log", ONE, "catalog://*/*/*/x", TWO));
		String fileUri = "file:///" + "/".repeat(2020);
		String catalogUri = "catalog://" + "/".repeat(2000);
		for (int i = 0; i < 20; i++) {
			assertThat(intervals.apply(fileUri)).isEqualTo(Duration.ZERO);
			assertThat(intervals.apply(catalogUri)).isEqualTo(Duration.ZERO);
		}
	}

	private static String randomString(Random random, String alphabet, int maxLength) {
		int length = random.nextInt(maxLength + 1);
		StringBuilder builder = new StringBuilder();
		for (int i = 0; i < length; i++) {
			builder.append(alphabet.charAt(random.nextInt(alphabet.length())));
		}
		return builder.toString();
	}

	private static String oracle(String pattern) {
		StringBuilder regex = new StringBuilder();
		for (String part : pattern.split("\\*", -1)) {
			if (!regex.isEmpty()) {
				regex.append(".*");
			}
			regex.append(Pattern.quote(part));
		}
		return regex.toString();
	}

}
