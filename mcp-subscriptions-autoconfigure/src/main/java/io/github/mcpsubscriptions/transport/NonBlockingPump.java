package io.github.mcpsubscriptions.transport;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.ServletOutputStream;

/**
 * The bytes of one response on their way into the Servlet container's non-blocking
 * output: they go to the container while it is ready for more, the rest wait here in
 * order, and the container's {@code onWritePossible} pumps them on. Whoever waits for the
 * client to take what it was given leaves a callback, run once it has.
 * <p>
 * Guarded by its stream's lock: every method is called with it held, and none calls out
 * but into the container's {@link ServletOutputStream}, which never blocks here. A
 * failure is thrown as an {@link IOException}; the stream then ends, and drops what waits
 * ({@link #drop()}).
 */
final class NonBlockingPump {

	private final Object lock;

	private final ServletOutputStream out;

	private final ArrayDeque<byte[]> waiting = new ArrayDeque<>();

	private final List<Runnable> writableCallbacks = new ArrayList<>();

	private boolean needsFlush;

	/**
	 * Whether the container said it was ready for more and nothing was written since: it
	 * stays ready until this stream writes, and each readiness check takes the
	 * container's write-registration path (Tomcat's own write and flush check it once
	 * more). It is asked once a write, after the flush: that answer also serves the
	 * writer's check before the next batch and the batch's own hand-over.
	 */
	private boolean ready;

	/** Whether anything went to the container since the last visit. */
	private boolean wroteSinceVisit;

	/** How many visits in a row found nothing written since the one before. */
	private int quietVisits;

	NonBlockingPump(Object lock, ServletOutputStream out) {
		this.lock = lock;
		this.out = out;
	}

	/**
	 * Hand frames over: straight from their array when nothing waits before them and the
	 * container is ready (it copies them), else in an array of their own, which waits.
	 * Called with the lock held.
	 * @param frames the frames; left as they are, for their owner to clear
	 * @throws IOException if the container fails
	 */
	void send(SseFrames frames) throws IOException {
		assert Thread.holdsLock(this.lock);
		try {
			int length = frames.length();
			if (length > 0) {
				if (this.waiting.isEmpty() && ready()) {
					writeThrough(frames.array(), 0, length);
				}
				else {
					this.waiting.add(frames.copy());
				}
			}
		}
		catch (RuntimeException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
		pump();
	}

	/**
	 * Hand a frame over after what waits. Called with the lock held.
	 * @param frame the frame, never changed after
	 * @throws IOException if the container fails
	 */
	void send(byte[] frame) throws IOException {
		assert Thread.holdsLock(this.lock);
		this.waiting.add(frame);
		pump();
	}

	/**
	 * Hand the container what waits, as far as it is ready for it, and flush it. Called
	 * with the lock held; never blocks.
	 * @throws IOException if the container fails
	 */
	void pump() throws IOException {
		assert Thread.holdsLock(this.lock);
		try {
			while (true) {
				if (this.needsFlush && this.waiting.isEmpty() && !flushUnlessRefused()) {
					return;
				}
				if (!ready()) {
					// The container calls onWritePossible once the client has taken more.
					return;
				}
				byte[] next = this.waiting.poll();
				if (next == null) {
					return;
				}
				writeThrough(next, 0, next.length);
			}
		}
		catch (RuntimeException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
	}

	/**
	 * Flush what was written, without asking the container first whether it is ready: its
	 * flush asks that itself, and refuses with an {@link IllegalStateException} if the
	 * last write left bytes the client has not taken (the Servlet contract). Asking as
	 * well would take the container's write-registration path once more on every write,
	 * the delivery threads' costliest step at saturation (#54). A write of a frame that
	 * fits the response's buffer never leaves bytes behind, so a refusal is rare. Called
	 * with the lock held.
	 * @return whether it flushed; if not, whether the container is ready now decides
	 * whether it calls {@code onWritePossible} later
	 */
	private boolean flushUnlessRefused() throws IOException {
		try {
			this.out.flush();
		}
		catch (IllegalStateException ex) {
			if (!ready()) {
				return false;
			}
			// Taken meanwhile: a refusal now is a failure.
			this.out.flush();
		}
		this.needsFlush = false;
		this.ready = false;
		return true;
	}

	/**
	 * Hand bytes to the container, which must be ready; a flush is due after. Called with
	 * the lock held.
	 */
	private void writeThrough(byte[] bytes, int from, int length) throws IOException {
		assert Thread.holdsLock(this.lock);
		this.ready = false;
		this.out.write(bytes, from, length);
		this.needsFlush = true;
		this.wroteSinceVisit = true;
	}

	/**
	 * Whether the container takes a write now: if not, it calls {@code onWritePossible}
	 * once it does. Called with the lock held.
	 */
	private boolean ready() {
		assert Thread.holdsLock(this.lock);
		if (!this.ready) {
			this.ready = this.out.isReady();
		}
		return this.ready;
	}

	/**
	 * Whether everything written is in the container's hands and it takes more now.
	 * Called with the lock held.
	 * @return whether more can be written without waiting
	 * @throws RuntimeException if the response completed under us
	 */
	boolean isWritable() {
		assert Thread.holdsLock(this.lock);
		return this.waiting.isEmpty() && !this.needsFlush && ready();
	}

	/**
	 * Whether the client has taken everything written, so that the response can complete
	 * without waiting for it: a container that is not ready still holds bytes of the last
	 * write (and calls {@code onWritePossible} once the client has taken them). Called
	 * with the lock held.
	 * @return whether nothing is held
	 */
	boolean holdsNothing() {
		assert Thread.holdsLock(this.lock);
		try {
			return isWritable();
		}
		catch (RuntimeException ex) {
			// Completed under us: nothing is held any more.
			return true;
		}
	}

	/**
	 * Run a callback once the stream is writable again. Called with the lock held.
	 * @param callback the callback
	 */
	void whenWritable(Runnable callback) {
		assert Thread.holdsLock(this.lock);
		this.writableCallbacks.add(callback);
	}

	/**
	 * The callbacks that waited for the stream to be writable, to run with the lock
	 * released. Called with the lock held.
	 * @return the callbacks, none left here
	 */
	List<Runnable> takeWritableCallbacks() {
		assert Thread.holdsLock(this.lock);
		if (this.writableCallbacks.isEmpty()) {
			return List.of();
		}
		List<Runnable> callbacks = List.copyOf(this.writableCallbacks);
		this.writableCallbacks.clear();
		return callbacks;
	}

	/** Drop what waits: the stream has ended. Called with the lock held. */
	void drop() {
		assert Thread.holdsLock(this.lock);
		this.waiting.clear();
	}

	/** Drop what waits and the callbacks: the container ended the response. */
	void dropAll() {
		assert Thread.holdsLock(this.lock);
		this.waiting.clear();
		this.writableCallbacks.clear();
	}

	/**
	 * A visit of the heartbeats. Called with the lock held.
	 * @return whether this is the second visit in a row with nothing written since the
	 * one before
	 */
	boolean quietVisit() {
		assert Thread.holdsLock(this.lock);
		if (this.wroteSinceVisit) {
			visited();
			return false;
		}
		return ++this.quietVisits >= 2;
	}

	/** The visits start again from none: a heartbeat was written. */
	void visited() {
		assert Thread.holdsLock(this.lock);
		this.wroteSinceVisit = false;
		this.quietVisits = 0;
	}

}
