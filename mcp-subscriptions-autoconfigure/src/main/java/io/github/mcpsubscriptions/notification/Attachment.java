package io.github.mcpsubscriptions.notification;

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * The stream an {@link Outbox} writes to, with everything that belongs to that stream
 * alone: what to write first, the replay it is owed, a keep-alive asked for, whether the
 * client has yet to take the last write and since when. An outbox holds one at most; it
 * is made when a stream attaches and dropped whole when the stream goes (detached,
 * failed, overflowed, stalled, closed), so nothing of one stream is left for the next.
 * Its fields are guarded by the outbox's lock, but {@link #writeStartedAt}.
 */
final class Attachment {

	/** {@link #writeStartedAt} while no write waits for the client. */
	static final long NOT_WRITING = Long.MIN_VALUE;

	final MessageStream stream;

	/**
	 * What the stream calls once the client has taken the last write: made once per
	 * stream rather than once per batch.
	 */
	final Runnable onWritable;

	/** What to write first, until the drain has taken it. */
	Outbox.@Nullable AttachAction action;

	/** Written after the attach action and before anything waiting, until it is over. */
	Outbox.@Nullable Replay replay;

	/** Whether a keep-alive comment is to be written. */
	boolean keepAlive;

	/**
	 * Whether the client has not taken the last write: no drain starts until
	 * {@link #onWritable} runs.
	 */
	boolean awaiting;

	/**
	 * When the write the client has not taken yet began (the clock's millis), or
	 * {@link #NOT_WRITING}. Volatile, as the stall check reads it without the lock; a
	 * number rather than an {@code Instant}, as it is set for every batch.
	 */
	volatile long writeStartedAt = NOT_WRITING;

	Attachment(MessageStream stream, Outbox.@Nullable AttachAction action, Consumer<Attachment> writable) {
		this.stream = stream;
		this.action = action;
		this.onWritable = () -> writable.accept(this);
	}

	/**
	 * Whether there is something to write besides the waiting notifications.
	 * @return whether an attach action, a keep-alive or a replay is to be written
	 */
	boolean owedFirst() {
		return this.action != null || this.keepAlive || this.replay != null;
	}

	/**
	 * Whether a write has waited for the client for longer than the timeout.
	 * @param nowMillis the clock's millis
	 * @param timeoutMillis the write timeout
	 * @return whether the stream stalled
	 */
	boolean stalled(long nowMillis, long timeoutMillis) {
		long started = this.writeStartedAt;
		return started != NOT_WRITING && nowMillis - started > timeoutMillis;
	}

}
