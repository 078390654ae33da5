package io.github.mcpsubscriptions.tester;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * A subscription a test waits on: a 2025-era {@link McpSession#subscribe(String)} or a
 * 2026-era {@link McpTester#listen(String...)} stream. Notifications are queued as they
 * arrive; {@link #awaitNotification()} takes the next one. A failed expectation lists
 * everything that arrived on the stream, and when.
 *
 * @since 0.1.0
 */
public final class McpSubscription implements AutoCloseable {

	private final String description;

	private final List<String> uris;

	private final StreamLog log;

	private final Duration timeout;

	private final Consumer<McpSubscription> onClose;

	private final BlockingQueue<McpNotification> pending = new LinkedBlockingQueue<>();

	private volatile List<String> acknowledged;

	private volatile boolean closed;

	McpSubscription(String description, List<String> uris, StreamLog log, Duration timeout,
			Consumer<McpSubscription> onClose) {
		this.description = description;
		this.uris = List.copyOf(uris);
		this.acknowledged = this.uris;
		this.log = log;
		this.timeout = timeout;
		this.onClose = onClose;
	}

	void deliver(McpNotification notification) {
		this.pending.add(notification);
	}

	void acknowledged(List<String> uris) {
		this.acknowledged = List.copyOf(uris);
	}

	/**
	 * The URIs subscribed to, as asked.
	 * @return the URIs
	 */
	public List<String> uris() {
		return this.uris;
	}

	/**
	 * The URIs the server accepted: for a listen stream, the
	 * {@code resourceSubscriptions} of its acknowledgement (the server leaves out a URI
	 * that covers nothing or that the caller may not read); for a session's subscription,
	 * its URI.
	 * @return the URIs
	 */
	public List<String> acknowledged() {
		return this.acknowledged;
	}

	/**
	 * Waits for the next notification, as long as the tester's timeout
	 * ({@value McpTester#DEFAULT_TIMEOUT_SECONDS} seconds unless set).
	 * @return the notification
	 * @throws AssertionError if none arrives in time; its message lists what did arrive
	 */
	public McpNotification awaitNotification() {
		return awaitNotification(this.timeout);
	}

	/**
	 * Waits for the next notification.
	 * @param timeout how long to wait
	 * @return the notification
	 * @throws AssertionError if none arrives in time; its message lists what did arrive
	 */
	public McpNotification awaitNotification(Duration timeout) {
		McpNotification notification = poll(timeout);
		if (notification == null) {
			throw new AssertionError("Expected a notification for " + this.uris + " within " + timeout + " on "
					+ this.description + ", but none came." + acknowledgement() + "\n" + this.log.describe());
		}
		return notification;
	}

	/**
	 * Asserts that no notification arrives for a while (one already received and not yet
	 * taken by {@link #awaitNotification()} counts), on a stream that stays open all that
	 * time: on a stream that has ended (its session deleted, the listen stream closed by
	 * either side) nothing could arrive, so the assertion would prove nothing.
	 * @param within how long to wait
	 * @throws AssertionError if one arrives, or if the stream has ended before the time
	 * is up; its message lists what arrived
	 */
	public void assertNoNotification(Duration within) {
		McpNotification notification = this.pending.poll();
		if (notification == null) {
			streamGone(within);
			notification = poll(within);
		}
		if (notification != null) {
			throw new AssertionError("Expected no notification for " + this.uris + " within " + within + " on "
					+ this.description + ", but one for " + notification.uri() + " (subscribedUri "
					+ notification.subscribedUri() + ") arrived at +" + this.log.since(notification.receivedAt())
					+ ".\n" + this.log.describe());
		}
		streamGone(within);
	}

	/** An ended stream makes a negative assertion pass without testing anything. */
	private void streamGone(Duration within) {
		if (this.log.isEnded()) {
			throw new AssertionError("Expected no notification for " + this.uris + " within " + within + " on "
					+ this.description + ", but the stream is gone: it ended, so nothing could have arrived"
					+ (this.closed ? " (the subscription was closed)" : "") + ".\n" + this.log.describe());
		}
	}

	private @Nullable McpNotification poll(Duration timeout) {
		try {
			return this.pending.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for a notification", ex);
		}
	}

	private String acknowledgement() {
		return this.acknowledged.equals(this.uris) ? "" : " The server accepted only " + this.acknowledged + ".";
	}

	/**
	 * Ends the subscription: a session's subscription is unsubscribed, a listen stream is
	 * cancelled and closed.
	 */
	@Override
	public void close() {
		if (!this.closed) {
			this.closed = true;
			this.onClose.accept(this);
		}
	}

	boolean isClosed() {
		return this.closed;
	}

	/**
	 * Whether the stream this subscription is heard on has ended.
	 * @return {@code true} once either side has ended it
	 */
	boolean isStreamEnded() {
		return this.log.isEnded();
	}

	@Override
	public String toString() {
		return "McpSubscription " + this.uris + " on " + this.description;
	}

}
