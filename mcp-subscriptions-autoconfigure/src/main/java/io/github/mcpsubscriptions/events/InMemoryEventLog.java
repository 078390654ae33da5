package io.github.mcpsubscriptions.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import tools.jackson.databind.JsonNode;

/**
 * The event log of one node, in memory: at most {@code maxSize} events, none older than
 * {@code maxAge}. Its epoch is random per instance, so that cursors of a previous run are
 * recognised as behind what is retained ({@code truncated}) rather than misread as
 * positions of this one.
 */
final class InMemoryEventLog implements EventLog {

	private final String epoch;

	private final int maxSize;

	private final Duration maxAge;

	private final Clock clock;

	private final ArrayDeque<LoggedEvent> events = new ArrayDeque<>();

	private final AppendSignal appends = new AppendSignal();

	private long head;

	InMemoryEventLog(int maxSize, Duration maxAge, Clock clock) {
		if (maxSize < 1) {
			throw new IllegalArgumentException("The event log must retain at least 1 event, was " + maxSize);
		}
		if (maxAge.isNegative() || maxAge.isZero()) {
			throw new IllegalArgumentException("The event log's retention must be positive, was " + maxAge);
		}
		this.maxSize = maxSize;
		this.maxAge = maxAge;
		this.clock = clock;
		this.epoch = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
	}

	@Override
	public String epoch() {
		return this.epoch;
	}

	@Override
	public Instant now() {
		return this.clock.instant();
	}

	@Override
	public LoggedEvent append(EventType type, Object event, JsonNode data) {
		LoggedEvent logged;
		synchronized (this) {
			long position = ++this.head;
			logged = new LoggedEvent(position, "evt_" + this.epoch + "_" + position, type.name(), this.clock.instant(),
					event, data);
			this.events.addLast(logged);
			evict();
		}
		this.appends.appended();
		return logged;
	}

	@Override
	public void whenAppended(Runnable listener) {
		this.appends.add(listener);
	}

	@Override
	public synchronized Slice after(long position) {
		evict();
		List<LoggedEvent> after = new ArrayList<>();
		for (LoggedEvent event : this.events) {
			if (event.position() > position) {
				after.add(event);
			}
		}
		long oldest = this.events.isEmpty() ? this.head + 1 : this.events.getFirst().position();
		return new Slice(this.head, oldest, after);
	}

	private void evict() {
		while (this.events.size() > this.maxSize) {
			this.events.removeFirst();
		}
		Instant expired = this.clock.instant().minus(this.maxAge);
		while (!this.events.isEmpty() && this.events.getFirst().timestamp().isBefore(expired)) {
			this.events.removeFirst();
		}
	}

}
