package io.github.mcpsubscriptions.transport;

/**
 * How far a stream is on its way to its end, and what is left to do about it: one phase
 * instead of flags that changed together, and the two callbacks of its owners
 * ({@code onClosed}: the stream takes no more writes; {@code onDone}: the response is
 * complete or given up), each asked for exactly once.
 * <ul>
 * <li>{@code OPEN} → {@code CLOSE_AFTER_BATCH}: the server closes it while another thread
 * writes a batch; when that batch ends, on as below.</li>
 * <li>{@code OPEN} → {@code CLOSING}: the server closes it while the client has bytes to
 * take; → {@code CLOSED} once it has taken them.</li>
 * <li>{@code OPEN}, {@code CLOSE_AFTER_BATCH}, {@code CLOSING} → {@code ABANDONED}: given
 * up (the close timeout, the application stops) while the container holds bytes; →
 * {@code CLOSED} once the client has taken them.</li>
 * <li>any → {@code CLOSED}: a write fails, the container ends the response, or the server
 * closes or gives up a stream whose client has taken everything.</li>
 * </ul>
 * <p>
 * Guarded by its stream's lock, apart from the volatile reads of {@link #isOpen()} and
 * {@link #isClosedByServer()}. A transition returns what is left to do as a set of
 * {@code TELL}, {@code COMPLETE}, {@code DONE} and {@code TIME_OUT}, which the stream
 * runs with its lock released.
 */
final class SseStreamEnd {

	enum Phase {

		/** Writes are taken. */
		OPEN,

		/**
		 * Closed by the server while another thread wrote a batch: that batch's frames go
		 * first, and its thread finishes the close.
		 */
		CLOSE_AFTER_BATCH,

		/**
		 * The server's close was handed over: the response completes once the client has
		 * taken what waits, or at the close timeout.
		 */
		CLOSING,

		/**
		 * Given up while the container held bytes the client had not taken: the response
		 * is completed once it has, or when the container ends it.
		 */
		ABANDONED,

		/** Nothing is left to do but the container's own end. */
		CLOSED

	}

	/** Tell the stream's owner it takes no more writes ({@code onClosed}). */
	static final int TELL = 1;

	/** Complete the container's response. */
	static final int COMPLETE = 2;

	/** Tell the stream's owner the response is complete or given up ({@code onDone}). */
	static final int DONE = 4;

	/** Give the stream up at the close timeout. */
	static final int TIME_OUT = 8;

	private final Object lock;

	private volatile Phase phase = Phase.OPEN;

	private volatile boolean closedByServer;

	/** Whether the server's close sends the {@code retry} field. */
	private boolean retry;

	/** The batches being written, which a server's close waits for. */
	private int batches;

	private boolean told;

	private boolean done;

	SseStreamEnd(Object lock) {
		this.lock = lock;
	}

	boolean isOpen() {
		return this.phase == Phase.OPEN;
	}

	/** Called with the lock held. */
	Phase phase() {
		assert Thread.holdsLock(this.lock);
		return this.phase;
	}

	/**
	 * Whether the server closed the stream rather than the client or a failed write.
	 */
	boolean isClosedByServer() {
		return this.closedByServer;
	}

	/**
	 * Whether the server's close sends the {@code retry} field. Called with the lock
	 * held.
	 */
	boolean retry() {
		assert Thread.holdsLock(this.lock);
		return this.retry;
	}

	/** A batch starts. Called with the lock held. */
	void batchStarted() {
		assert Thread.holdsLock(this.lock);
		this.batches++;
	}

	/**
	 * A batch ended. Called with the lock held.
	 * @return whether the close waited for it, and its thread now finishes it
	 */
	boolean batchEnded() {
		assert Thread.holdsLock(this.lock);
		this.batches--;
		return this.batches == 0 && this.phase == Phase.CLOSE_AFTER_BATCH;
	}

	/** Whether a batch is being written. Called with the lock held. */
	boolean batching() {
		assert Thread.holdsLock(this.lock);
		return this.batches > 0;
	}

	/**
	 * Closed by the server; writes are refused from now on. Called with the lock held.
	 * @param retry whether the close sends the {@code retry} field
	 * @return whether the stream was open
	 */
	boolean closeByServer(boolean retry) {
		assert Thread.holdsLock(this.lock);
		if (this.phase != Phase.OPEN) {
			return false;
		}
		this.closedByServer = true;
		this.retry = retry;
		return true;
	}

	/**
	 * Given up by the server. Called with the lock held.
	 * @return whether anything was left to give up
	 */
	boolean abort() {
		assert Thread.holdsLock(this.lock);
		if (this.phase == Phase.ABANDONED || this.phase == Phase.CLOSED) {
			return false;
		}
		this.closedByServer = true;
		return true;
	}

	/** The close waits for another thread's batch. Called with the lock held. */
	void closeAfterBatch() {
		assert Thread.holdsLock(this.lock);
		this.phase = Phase.CLOSE_AFTER_BATCH;
	}

	/**
	 * On to a later phase. Called with the lock held.
	 * @param next the phase
	 * @return {@link #TELL} unless the owner was told already
	 */
	int to(Phase next) {
		assert Thread.holdsLock(this.lock);
		this.phase = next;
		if (this.told) {
			return 0;
		}
		this.told = true;
		return TELL;
	}

	/**
	 * The response is to complete, unless it did. Called with the lock held.
	 * @return {@link #COMPLETE} and {@link #DONE}, or nothing
	 */
	int complete() {
		assert Thread.holdsLock(this.lock);
		return this.done ? 0 : (COMPLETE | done());
	}

	/**
	 * The response is to complete even if it did: a failed write of what the client never
	 * took puts the container back into error handling, which ends in an error dispatch
	 * unless a listener completes the response again (and the error page would then be
	 * written into the event stream). Called with the lock held.
	 * @return {@link #COMPLETE}, and {@link #DONE} unless the owner was told already
	 */
	int completeAgain() {
		assert Thread.holdsLock(this.lock);
		return COMPLETE | done();
	}

	/**
	 * The response is over for the stream's owner, completed or not. Called with the lock
	 * held.
	 * @return {@link #DONE} unless the owner was told already
	 */
	int done() {
		assert Thread.holdsLock(this.lock);
		if (this.done) {
			return 0;
		}
		this.done = true;
		return DONE;
	}

}
