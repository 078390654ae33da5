package io.github.mcpsubscriptions.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.github.mcpsubscriptions.notification.DeliveryScheduler;
import io.github.mcpsubscriptions.notification.EncodedMessage;
import io.github.mcpsubscriptions.notification.MessageStream;
import io.github.mcpsubscriptions.transport.SseStreamEnd.Phase;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * An SSE response written through the Servlet container's non-blocking I/O: a write never
 * waits for the client. Frames go to the container only while it is ready for more; the
 * rest wait here, and the container calls back when the client has taken what it was
 * given. A client that stops reading therefore holds no thread, only its bytes.
 * <p>
 * Its parts: {@link SseFrames} builds the frames (pure) in the writing thread's
 * {@link BatchBuffer} (no lock); under the stream's lock, the {@link NonBlockingPump}
 * hands them to the container and keeps what it cannot take yet, and {@link SseStreamEnd}
 * is the close protocol. Every frame is written by a batch ({@link #sendBatch}): one
 * written outside a batch is a batch of its own.
 * <p>
 * What waits here stays small: the outbox writes its next batch only when the stream is
 * writable again ({@link #whenWritable}), so at most one step of the writer (one batch of
 * notifications, bounded in count and bytes, or a priming event with a bounded replay)
 * and the closing frame wait.
 * <p>
 * The server's {@link #close()} hands over what waits, then completes the response; if
 * the client does not take it within the close timeout the response is completed anyway,
 * by a task on the shared delivery timer, never a thread of its own. A client that went
 * away without a word is found by the endpoint's {@link Heartbeats}, which visit the
 * stream ({@link #visit()}).
 */
final class AsyncSseStream implements MessageStream {

	static final String MESSAGE_EVENT = SseFrames.MESSAGE_EVENT;

	/**
	 * The response buffer a stream asks for: Jetty holds one for as long as the response
	 * is open once it has written (32 KB of direct memory by default, 512 MB for 16,000
	 * streams), while a stream's writes are a few hundred bytes, flushed at once, and a
	 * larger batch is written past the buffer. Tomcat only ever grows its buffer.
	 */
	static final int RESPONSE_BUFFER_SIZE = 4096;

	private static final AtomicLong IDS = new AtomicLong();

	private final Object lock = new Object();

	/** Marks a thread's buffer as this stream's batch: a number, not a reference. */
	private final long id = IDS.incrementAndGet();

	private final AsyncContext context;

	private final NonBlockingPump pump;

	private final SseStreamEnd end = new SseStreamEnd(this.lock);

	private final Consumer<MessageStream> onClosed;

	private final Consumer<AsyncSseStream> onDone;

	/** The {@code retry} field sent before the server closes the stream, if any. */
	private final byte @Nullable [] retryFrame;

	private final DeliveryScheduler timer;

	private final Duration closeTimeout;

	/**
	 * Writes the heartbeats of a stream whose heartbeats are messages of its own (a push
	 * stream of the Events extension), or {@code null} for heartbeat comments.
	 */
	private final @Nullable Runnable heartbeat;

	/** The heartbeats' visits so far; on the heartbeat thread only. */
	private long visits;

	private AsyncSseStream(AsyncContext context, ServletOutputStream out, Consumer<MessageStream> onClosed,
			Consumer<AsyncSseStream> onDone, @Nullable Duration retryOnClose, DeliveryScheduler timer,
			Duration closeTimeout, @Nullable Runnable heartbeat) {
		this.heartbeat = heartbeat;
		this.context = context;
		this.pump = new NonBlockingPump(this.lock, out);
		this.onClosed = onClosed;
		this.onDone = onDone;
		this.retryFrame = (retryOnClose != null) ? retryFrame(retryOnClose) : null;
		this.timer = timer;
		this.closeTimeout = closeTimeout;
	}

	private static byte[] retryFrame(Duration retry) {
		SseFrames frame = new SseFrames(32);
		frame.retry(retry);
		return frame.copy();
	}

	/**
	 * Turn a request into an open SSE stream: status and headers set, the request in
	 * async mode with no timeout, its output in non-blocking mode.
	 * @param request the request
	 * @param response its response
	 * @param onClosed told once when the stream ends, whoever ends it
	 * @param onDone told once the response is complete (or given up)
	 * @param retryOnClose an SSE {@code retry} sent before the server closes the stream,
	 * for clients that are meant to resume; {@code null} for none
	 * @param timer runs the close timeout
	 * @param closeTimeout how long a closing stream waits for its client to take the rest
	 * @return the stream
	 * @throws IOException if the response cannot be written to
	 */
	static AsyncSseStream open(HttpServletRequest request, HttpServletResponse response,
			Consumer<MessageStream> onClosed, Consumer<AsyncSseStream> onDone, @Nullable Duration retryOnClose,
			DeliveryScheduler timer, Duration closeTimeout) throws IOException {
		return open(request, response, onClosed, onDone, retryOnClose, timer, closeTimeout, null);
	}

	/**
	 * Turn a request into an open SSE stream whose heartbeats are messages its owner
	 * writes: at every second visit of the heartbeats, whether or not anything was
	 * written meanwhile, and never a comment.
	 * @param request the request
	 * @param response its response
	 * @param onClosed told once when the stream ends, whoever ends it
	 * @param onDone told once the response is complete (or given up)
	 * @param retryOnClose an SSE {@code retry} sent before the server closes the stream,
	 * for clients that are meant to resume; {@code null} for none
	 * @param timer runs the close timeout
	 * @param closeTimeout how long a closing stream waits for its client to take the rest
	 * @param heartbeat hands the writing of a heartbeat over (it must not block), or
	 * {@code null} for heartbeat comments
	 * @return the stream
	 * @throws IOException if the response cannot be written to
	 */
	static AsyncSseStream open(HttpServletRequest request, HttpServletResponse response,
			Consumer<MessageStream> onClosed, Consumer<AsyncSseStream> onDone, @Nullable Duration retryOnClose,
			DeliveryScheduler timer, Duration closeTimeout, @Nullable Runnable heartbeat) throws IOException {
		response.setStatus(HttpServletResponse.SC_OK);
		response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
		response.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache, no-transform");
		response.setHeader("X-Accel-Buffering", "no");
		response.setBufferSize(RESPONSE_BUFFER_SIZE);
		AsyncContext context = request.startAsync(request, response);
		// The stream lives until the client leaves or the server closes it.
		context.setTimeout(0);
		ServletOutputStream out = response.getOutputStream();
		AsyncSseStream stream = new AsyncSseStream(context, out, onClosed, onDone, retryOnClose, timer, closeTimeout,
				heartbeat);
		context.addListener(stream.new Listener());
		out.setWriteListener(stream.new Writer());
		return stream;
	}

	@Override
	public void send(@Nullable String eventId, String data) throws IOException {
		SseFrames frames = batchFrames();
		if (frames == null) {
			sendAlone((alone) -> alone.message(eventId, data));
			return;
		}
		frames.message(eventId, data);
	}

	@Override
	public void send(@Nullable String eventId, EncodedMessage data) throws IOException {
		SseFrames frames = batchFrames();
		if (frames == null) {
			sendAlone((alone) -> alone.message(eventId, data));
			return;
		}
		frames.message(eventId, data);
	}

	@Override
	public void send(byte[] eventIdPrefix, long eventIdSequence, EncodedMessage data) throws IOException {
		SseFrames frames = batchFrames();
		if (frames == null) {
			sendAlone((alone) -> alone.message(eventIdPrefix, eventIdSequence, data));
			return;
		}
		frames.message(eventIdPrefix, eventIdSequence, data);
	}

	@Override
	public void prime(String eventId) throws IOException {
		SseFrames frames = batchFrames();
		if (frames == null) {
			sendAlone((alone) -> alone.prime(eventId));
			return;
		}
		frames.prime(eventId);
	}

	@Override
	public void sendComment(String comment) throws IOException {
		SseFrames frames = batchFrames();
		if (frames == null) {
			sendAlone((alone) -> alone.comment(comment));
			return;
		}
		frames.comment(comment);
	}

	/**
	 * The frames of this stream's batch if the calling thread is writing one, else
	 * {@code null}: only that thread touches them, so framing takes no lock.
	 */
	private @Nullable SseFrames batchFrames() throws IOException {
		if (!this.end.isOpen()) {
			throw closed();
		}
		BatchBuffer batch = BatchBuffer.of(this.id);
		return (batch != null) ? batch.frames : null;
	}

	/** One frame written outside a batch: a batch of its own. */
	private void sendAlone(Frame frame) throws IOException {
		BatchBuffer batch = startBatch();
		try {
			frame.writeTo(batch.frames);
		}
		finally {
			endBatch(batch);
		}
	}

	/**
	 * Hold the batch's frames until it ends, then hand them to the container together:
	 * one flush, which on a socket the client keeps up with is one system call.
	 */
	@Override
	public void sendBatch(int maxBytes, BatchWriter writer) throws IOException {
		BatchBuffer batch = startBatch();
		try {
			assert !Thread.holdsLock(this.lock) : "Lock order: outbox, then stream";
			while (writer.writeNext(this) && batch.frames.length() < maxBytes) {
				// The thread's own frames: their length is read without the lock.
			}
		}
		finally {
			endBatch(batch);
		}
	}

	/** A batch starts: its frames go into a free buffer of the calling thread's. */
	private BatchBuffer startBatch() throws IOException {
		synchronized (this.lock) {
			if (!this.end.isOpen()) {
				throw closed();
			}
			this.end.batchStarted();
		}
		return BatchBuffer.open(this.id);
	}

	/**
	 * The batch's frames go to the container, unless the stream was given up meanwhile; a
	 * close that waited for the batch follows them.
	 */
	private void endBatch(BatchBuffer batch) throws IOException {
		IOException failure = null;
		int actions = 0;
		try {
			synchronized (this.lock) {
				boolean closeNow = this.end.batchEnded();
				Phase phase = this.end.phase();
				if (phase != Phase.ABANDONED && phase != Phase.CLOSED) {
					try {
						this.pump.send(batch.frames);
					}
					catch (IOException ex) {
						failure = ex;
						actions = failed();
					}
				}
				if (failure == null && closeNow) {
					actions = finishClose(null);
				}
			}
		}
		finally {
			// After the hand-over: the container has copied the frames, or they wait in
			// an array of their own.
			batch.release();
		}
		settle(actions);
		if (failure != null) {
			throw failure;
		}
	}

	@Override
	public boolean whenWritable(Runnable callback) {
		synchronized (this.lock) {
			if (!this.end.isOpen()) {
				// The next write fails, which tells the writer the stream is gone.
				return true;
			}
			try {
				if (this.pump.isWritable()) {
					return true;
				}
			}
			catch (RuntimeException ex) {
				return true;
			}
			this.pump.whenWritable(callback);
			return false;
		}
	}

	@Override
	public boolean isOpen() {
		return this.end.isOpen();
	}

	/**
	 * Close the stream from the server's side: a {@code retry} field first (for a client
	 * meant to resume), then the response completes once the client has taken what waits,
	 * or after the close timeout. Never waits.
	 */
	@Override
	public void close() {
		close(true);
	}

	/**
	 * Close the stream from the server's side with no {@code retry} field: the client
	 * would only come back to a session that is gone, or open a stream beside its newer
	 * one.
	 */
	@Override
	public void closeForGood() {
		close(false);
	}

	private void close(boolean retry) {
		int actions;
		synchronized (this.lock) {
			if (!this.end.closeByServer(retry)) {
				return;
			}
			BatchBuffer mine = BatchBuffer.of(this.id);
			if (mine == null && this.end.batching()) {
				// Another thread's batch: its frames go first, so that thread closes.
				this.end.closeAfterBatch();
				return;
			}
			// Closed by the writer of a batch (a last message, then close): what the
			// batch wrote goes first.
			actions = finishClose((mine != null) ? mine.frames : null);
		}
		settle(actions);
	}

	/**
	 * The server's close, after the frames already written: a {@code retry} field unless
	 * the stream ends for good, then the response completes once the client has taken
	 * what waits, or at the close timeout. Called with the lock held.
	 * @param batch the frames of the closing thread's batch, which go first
	 */
	private int finishClose(@Nullable SseFrames batch) {
		assert Thread.holdsLock(this.lock);
		try {
			if (batch != null) {
				this.pump.send(batch);
				batch.clear(BatchBuffer.MAX_KEPT);
			}
			if (this.retryFrame != null && this.end.retry()) {
				this.pump.send(this.retryFrame);
			}
			if (!this.pump.holdsNothing()) {
				return this.end.to(Phase.CLOSING) | SseStreamEnd.TIME_OUT;
			}
		}
		catch (IOException ex) {
			this.pump.drop();
		}
		return this.end.to(Phase.CLOSED) | this.end.complete();
	}

	/**
	 * A write failed: the client went away, or the response completed under us. Called
	 * with the lock held.
	 */
	private int failed() {
		assert Thread.holdsLock(this.lock);
		this.pump.drop();
		return this.end.to(Phase.CLOSED) | this.end.complete();
	}

	/**
	 * Give the stream up now, dropping what waits here: at the close timeout, and when
	 * the application stops. The response is completed at once if the container holds
	 * nothing the client has not taken; otherwise as soon as the client takes it, or when
	 * the container reports the client gone (a reset connection, or the container's write
	 * timeout). Completing a response whose bytes the container still holds only makes
	 * the container wait for the client all the same, and Tomcat then loses track of the
	 * request when the client resets the connection: it logs a
	 * {@code RecycleRequiredException}, and its graceful shutdown waits for that request
	 * until it times out.
	 */
	void abort() {
		int actions;
		synchronized (this.lock) {
			if (!this.end.abort()) {
				return;
			}
			this.pump.drop();
			if (this.pump.holdsNothing()) {
				actions = this.end.to(Phase.CLOSED) | this.end.complete();
			}
			else {
				// Given up: only the container's end of the response is left.
				actions = this.end.to(Phase.ABANDONED) | this.end.done();
			}
		}
		settle(actions);
	}

	/**
	 * A visit of the heartbeats, two per heartbeat interval: a stream that had nothing
	 * written for two visits in a row gets a heartbeat comment, one that wrote meanwhile
	 * costs nothing. The container does not watch the connection of an asynchronous
	 * response while nothing is being written, and the first write to a connection its
	 * client closed still succeeds: the next heartbeat fails, and ends the stream, so a
	 * client gone without a word is found within two heartbeat intervals. A stream with a
	 * write pending is left alone: the container watches its connection until the client
	 * takes it (and the write timeout gives it up if it never does).
	 * @return whether a heartbeat was written
	 */
	boolean visit() {
		Runnable owned = this.heartbeat;
		if (owned != null) {
			// A fixed schedule, one per interval, written by the owner (with what it
			// alone knows, such as a cursor); the write that fails finds a client gone.
			if (++this.visits % 2 != 0 || !isOpen()) {
				return false;
			}
			owned.run();
			return true;
		}
		synchronized (this.lock) {
			if (!this.end.isOpen() || this.end.batching() || !this.pump.quietVisit()) {
				return false;
			}
			try {
				if (!this.pump.isWritable()) {
					return false;
				}
			}
			catch (RuntimeException ex) {
				// Completed under us: the container has told, or is telling, the
				// listener.
				return false;
			}
		}
		try {
			sendAlone(SseFrames::heartbeat);
		}
		catch (IOException ex) {
			// The stream has ended: that is what heartbeats are for.
			return false;
		}
		synchronized (this.lock) {
			this.pump.visited();
		}
		return true;
	}

	/**
	 * The number that places this stream among the heartbeats' slots: streams opened one
	 * after the other get consecutive numbers, so a burst of them is spread evenly.
	 * @return the number
	 */
	long sequence() {
		return this.id;
	}

	/**
	 * Whether the server closed the stream ({@link #close()}) rather than the client or a
	 * failed write.
	 */
	boolean isClosedByServer() {
		return this.end.isClosedByServer();
	}

	/**
	 * Do what a transition of the close protocol left to do, with the lock released: the
	 * one place that tells the owners ({@code onClosed}, {@code onDone}) and completes
	 * the response.
	 * @param actions {@link SseStreamEnd#TELL}, {@link SseStreamEnd#COMPLETE},
	 * {@link SseStreamEnd#DONE}, {@link SseStreamEnd#TIME_OUT}, or none
	 */
	private void settle(int actions) {
		assert !Thread.holdsLock(this.lock) : "Lock order: outbox, then stream";
		if (actions == 0) {
			return;
		}
		try {
			if ((actions & SseStreamEnd.TELL) != 0) {
				this.onClosed.accept(this);
			}
		}
		finally {
			try {
				if ((actions & SseStreamEnd.COMPLETE) != 0) {
					completeContext();
				}
			}
			finally {
				if ((actions & SseStreamEnd.DONE) != 0) {
					this.onDone.accept(this);
				}
				if ((actions & SseStreamEnd.TIME_OUT) != 0) {
					this.timer.schedule(this::abort, this.closeTimeout);
				}
			}
		}
	}

	private void completeContext() {
		try {
			this.context.complete();
		}
		catch (IllegalStateException ex) {
			// Completed by the container already (the client left).
		}
	}

	/**
	 * The container's end of the response: the client left, or it completed.
	 * @param completeIt whether the container reports an error or a timeout, which the
	 * response must be completed for (again, if this stream completed it before)
	 */
	private void containerEnded(boolean completeIt) {
		int actions;
		synchronized (this.lock) {
			actions = containerEndedLocked(completeIt);
		}
		settle(actions);
	}

	/** Called with the lock held. */
	private int containerEndedLocked(boolean completeIt) {
		assert Thread.holdsLock(this.lock);
		this.pump.dropAll();
		return this.end.to(Phase.CLOSED) | (completeIt ? this.end.completeAgain() : this.end.done());
	}

	private static IOException closed() {
		return new IOException("The stream is closed");
	}

	/** One frame, written into a batch's frames. */
	@FunctionalInterface
	private interface Frame {

		void writeTo(SseFrames frames);

	}

	private final class Writer implements WriteListener {

		@Override
		public void onWritePossible() {
			List<Runnable> callbacks = List.of();
			int actions = 0;
			synchronized (AsyncSseStream.this.lock) {
				Phase phase = AsyncSseStream.this.end.phase();
				if (phase != Phase.CLOSED) {
					try {
						AsyncSseStream.this.pump.pump();
						if (AsyncSseStream.this.pump.isWritable()) {
							if (phase == Phase.CLOSING || phase == Phase.ABANDONED) {
								// The client has taken the rest: the response completes.
								actions = AsyncSseStream.this.end.to(Phase.CLOSED)
										| AsyncSseStream.this.end.completeAgain();
							}
							else {
								callbacks = AsyncSseStream.this.pump.takeWritableCallbacks();
							}
						}
					}
					catch (IOException | RuntimeException ex) {
						actions = containerEndedLocked(true);
					}
				}
			}
			settle(actions);
			assert !Thread.holdsLock(AsyncSseStream.this.lock) : "Lock order: outbox, then stream";
			callbacks.forEach(Runnable::run);
		}

		@Override
		public void onError(Throwable ex) {
			containerEnded(true);
		}

	}

	private final class Listener implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			containerEnded(false);
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			containerEnded(true);
		}

		@Override
		public void onError(AsyncEvent event) {
			containerEnded(true);
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
		}

	}

}
