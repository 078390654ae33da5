package io.github.mcpsubscriptions.transport;

import org.jspecify.annotations.Nullable;

/**
 * A thread's buffer for the frames of an {@link AsyncSseStream}'s batch, marked with the
 * stream whose batch it holds; the next in the chain holds a batch written inside this
 * one (another stream's). Only its thread touches it, so the frames are built without a
 * lock.
 */
final class BatchBuffer {

	/** The most a thread keeps: a larger batch's array is let go when it ends. */
	static final int MAX_KEPT = 64 * 1024;

	/**
	 * Each thread builds its batches in buffers of its own: a stream's batch is usually
	 * handed to the container (which copies it) as soon as it ends, and a buffer per
	 * stream and batch was most of what delivery allocated. The stream keeps no reference
	 * to them: a reference stored into a long-lived stream for every batch of every
	 * stream was a card for the garbage collector to refine each time, while the thread's
	 * buffer is one card, dirty already.
	 */
	private static final ThreadLocal<BatchBuffer> BUFFERS = ThreadLocal.withInitial(BatchBuffer::new);

	final SseFrames frames = new SseFrames(1024);

	/** The id of the stream whose batch this holds, or 0. */
	private long owner;

	private @Nullable BatchBuffer next;

	private BatchBuffer() {
	}

	/** The calling thread's free buffer, now the batch of stream {@code owner}. */
	static BatchBuffer open(long owner) {
		BatchBuffer buffer = BUFFERS.get();
		while (buffer.owner != 0) {
			BatchBuffer next = buffer.next;
			if (next == null) {
				next = new BatchBuffer();
				buffer.next = next;
			}
			buffer = next;
		}
		buffer.owner = owner;
		return buffer;
	}

	/**
	 * The innermost batch of stream {@code owner} the calling thread writes, if any.
	 */
	static @Nullable BatchBuffer of(long owner) {
		BatchBuffer found = null;
		for (BatchBuffer buffer = BUFFERS.get(); buffer != null; buffer = buffer.next) {
			if (buffer.owner == owner) {
				found = buffer;
			}
		}
		return found;
	}

	/** The batch is over: the buffer is free for the thread's next batch. */
	void release() {
		this.frames.clear(MAX_KEPT);
		this.owner = 0;
	}

}
