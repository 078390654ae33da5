package io.github.mcpsubscriptions.events;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * Counts of the Events extension besides webhook delivery ({@link WebhookStats}), for the
 * meters: events recorded by type, occurrences delivered by mode, open push streams and
 * the lag of pushed events. Never tagged by subscription, principal or arguments; an
 * event type's name is a tag, since the types are declared at start-up.
 * <p>
 * The hooks of delivery: {@code events/poll} calls {@link #delivered(String, int)} with
 * {@link #POLL} and the occurrences of each result; {@code events/stream} calls
 * {@link #streamOpened()} and {@link #streamClosed()} once each per stream and
 * {@link #pushed(Duration)} for each occurrence written (meters
 * {@code mcp.events.delivered{mode}}, {@code mcp.events.subscriptions{mode=push}},
 * {@code mcp.events.push.lag}). Webhook deliveries are counted by {@link WebhookStats}.
 */
final class EventStats {

	/** The delivery mode {@code poll}, a tag value. */
	static final String POLL = "poll";

	/** The delivery mode {@code push}, a tag value. */
	static final String PUSH = "push";

	/** The delivery mode {@code webhook}, a tag value. */
	static final String WEBHOOK = "webhook";

	private final Map<String, LongAdder> recorded = new ConcurrentHashMap<>();

	private final LongAdder polled = new LongAdder();

	private final LongAdder pushed = new LongAdder();

	private final AtomicInteger streams = new AtomicInteger();

	private volatile @Nullable Consumer<Duration> pushLagObserver;

	/**
	 * An event was recorded in the event log (on the node that appended it).
	 * @param type its type's name
	 */
	void recorded(String type) {
		counter(type).increment();
	}

	/**
	 * Occurrences were handed to a client.
	 * @param mode {@link #POLL} or {@link #PUSH}
	 * @param count how many
	 */
	void delivered(String mode, int count) {
		if (POLL.equals(mode)) {
			this.polled.add(count);
		}
		else if (PUSH.equals(mode)) {
			this.pushed.add(count);
		}
		else {
			throw new IllegalArgumentException("Webhook deliveries are counted by WebhookStats, not " + mode);
		}
	}

	/**
	 * One occurrence was written to a push stream.
	 * @param lag the time from its recording to its write
	 */
	void pushed(Duration lag) {
		this.pushed.increment();
		Consumer<Duration> observer = this.pushLagObserver;
		if (observer != null) {
			observer.accept(lag);
		}
	}

	/** A push stream ({@code events/stream}) opened. */
	void streamOpened() {
		this.streams.incrementAndGet();
	}

	/** A push stream ended, for whatever reason. */
	void streamClosed() {
		this.streams.decrementAndGet();
	}

	void observePushLag(Consumer<Duration> observer) {
		this.pushLagObserver = observer;
	}

	/**
	 * The counter of a type, created when the meters are bound or at its first event.
	 * @param type the type's name
	 * @return its counter
	 */
	LongAdder counter(String type) {
		return this.recorded.computeIfAbsent(type, (key) -> new LongAdder());
	}

	long getRecorded(String type) {
		LongAdder count = this.recorded.get(type);
		return (count != null) ? count.sum() : 0;
	}

	long getDelivered(String mode) {
		return switch (mode) {
			case POLL -> this.polled.sum();
			case PUSH -> this.pushed.sum();
			default -> 0;
		};
	}

	int getOpenStreams() {
		return this.streams.get();
	}

}
