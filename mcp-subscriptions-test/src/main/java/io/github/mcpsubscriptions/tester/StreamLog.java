package io.github.mcpsubscriptions.tester;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Everything that arrived on one SSE stream, and when: a failed expectation lists it.
 */
final class StreamLog {

	private final String name;

	private final Instant opened = Instant.now();

	private final List<Arrival> arrivals = new ArrayList<>();

	private @Nullable Instant ended;

	StreamLog(String name) {
		this.name = name;
	}

	synchronized void arrived(Instant at, String message) {
		this.arrivals.add(new Arrival(at, message));
	}

	/**
	 * The stream was closed and opened again: what arrives next comes on the new one.
	 */
	synchronized void reopened(Instant at, Object where) {
		this.arrivals.add(new Arrival(at, "(the stream was reopened through " + where + ")"));
		this.ended = null;
	}

	synchronized void ended() {
		if (this.ended == null) {
			this.ended = Instant.now();
		}
	}

	synchronized boolean isEnded() {
		return this.ended != null;
	}

	String name() {
		return this.name;
	}

	/**
	 * What arrived, one line each, with the time since the stream opened.
	 * @return the description
	 */
	synchronized String describe() {
		StringBuilder out = new StringBuilder();
		if (this.arrivals.isEmpty()) {
			out.append("Nothing arrived on ")
				.append(this.name)
				.append(" in ")
				.append(since(Instant.now()))
				.append(" since it opened.");
		}
		else {
			out.append("What arrived on ")
				.append(this.name)
				.append(" (time since it opened at ")
				.append(this.opened)
				.append("):");
			for (Arrival arrival : this.arrivals) {
				out.append("\n  +")
					.append(since(arrival.at()))
					.append("  ")
					.append(McpTester.abbreviate(arrival.message()));
			}
		}
		if (this.ended != null) {
			out.append("\nThe stream ended at +").append(since(this.ended)).append('.');
		}
		return out.toString();
	}

	String since(Instant at) {
		return Duration.between(this.opened, at).toMillis() + " ms";
	}

	private record Arrival(Instant at, String message) {
	}

}
