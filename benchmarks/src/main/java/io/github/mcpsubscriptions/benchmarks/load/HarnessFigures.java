package io.github.mcpsubscriptions.benchmarks.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.benchmarks.JsonText;

/**
 * What the harnesses that start the sample from its jar share to report: times on one
 * clock, rounded figures, the machine's load, and their one JSON line (written by hand:
 * the harnesses use no JSON library for their reports).
 */
final class HarnessFigures {

	private HarnessFigures() {
	}

	/** An instant as nanoseconds of the epoch, so that arrivals and commits subtract. */
	static long nanos(Instant instant) {
		return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
	}

	/** Nanoseconds as milliseconds, to two decimals. */
	static double millis(long nanos) {
		return Math.round(nanos / 10_000.0) / 100.0;
	}

	/** A figure to one decimal. */
	static double round(double value) {
		return Math.round(value * 10) / 10.0;
	}

	/** The machine's load average as the kernel reports it, or {@code unknown}. */
	static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).trim();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * A report as one line of JSON: maps as objects, lists as arrays, numbers and
	 * booleans as they are, anything else as a string.
	 */
	static String json(Object value) {
		if (value instanceof Map<?, ?> map) {
			StringBuilder out = new StringBuilder("{");
			map.forEach((key, item) -> out.append((out.length() > 1) ? "," : "")
				.append('"')
				.append(key)
				.append("\":")
				.append(json(item)));
			return out.append('}').toString();
		}
		if (value instanceof List<?> list) {
			return list.stream()
				.map(HarnessFigures::json)
				.reduce((a, b) -> a + "," + b)
				.map((s) -> "[" + s + "]")
				.orElse("[]");
		}
		if (value instanceof Number || value instanceof Boolean) {
			return value.toString();
		}
		StringBuilder out = new StringBuilder("\"");
		JsonText.escape(out, String.valueOf(value));
		return out.append('"').toString();
	}

}
