package io.github.mcpsubscriptions.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.github.mcpsubscriptions.notification.DeliveryScheduler;
import io.github.mcpsubscriptions.notification.EncodedMessage;
import io.github.mcpsubscriptions.notification.MessageStream;
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

	static final String MESSAGE_EVENT = "message";

	private static final byte[] ID = "id:".getBytes(StandardCharsets.UTF_8);

	private static final byte[] MESSAGE_EVENT_LINE = ("event:" + MESSAGE_EVENT + "\n").getBytes(StandardCharsets.UTF_8);

	private static final byte[] DATA = "data:".getBytes(StandardCharsets.UTF_8);

	private static final byte[] HEARTBEAT = ":heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

	/**
	 * The response buffer a stream asks for: Jetty holds one for as long as the response
	 * is open once it has written (32 KB of direct memory by default, 512 MB for 16,000
	 * streams), while a stream's writes are a few hundred bytes, flushed at once, and a
	 * larger batch is written past the buffer. Tomcat only ever grows its buffer.
	 */
	static final int RESPONSE_BUFFER_SIZE = 4096;

	/**
	 * Each delivery thread builds its batches in one buffer of its own: a stream's batch
	 * is usually handed to the container (which copies it) as soon as it ends, and a
	 * buffer per stream and batch was most of what delivery allocated.
	 */
	private static final ThreadLocal<BatchBuffer> BUFFERS = ThreadLocal.withInitial(BatchBuffer::new);

	private static final AtomicLong IDS = new AtomicLong();

	/** No number follows an event id. */
	private static final long NO_SEQUENCE = -1;

	private enum State {

		OPEN, CLOSING, DONE

	}

	private final Object lock = new Object();

	private final AsyncContext context;

	private final ServletOutputStream out;

	private final ArrayDeque<ByteBuffer> waiting = new ArrayDeque<>();

	private final List<Runnable> writableCallbacks = new ArrayList<>();

	private final AtomicBoolean reported = new AtomicBoolean();

	private final AtomicBoolean completed = new AtomicBoolean();

	private final Consumer<MessageStream> onClosed;

	private final Consumer<AsyncSseStream> onDone;

	private final @Nullable Duration retryOnClose;

	private final DeliveryScheduler timer;

	private final Duration closeTimeout;

	private State state = State.OPEN;

	private boolean needsFlush;

	/**
	 * Whether the container said it was ready for more and nothing was written since: it
	 * stays ready until this stream writes, and each readiness check takes the
	 * container's write-registration path (Tomcat's own write and flush check it once
	 * more).
	 */
	private boolean ready;

	/** Whether anything went to the container since the last {@link #visit()}. */
	private boolean wroteSinceVisit;

	/** How many visits in a row found nothing written since the one before. */
	private int quietVisits;

	/**
	 * Inside {@link #sendBatch}: the frames of the batch wait in the batching thread's
	 * buffer, which is marked with this stream's {@link #id}, and the container gets them
	 * with one write when the batch ends (a write costs a readiness check and a copy).
	 * The stream keeps no reference to that buffer: a reference stored into this
	 * long-lived object for every batch of every stream was a card for the garbage
	 * collector to refine each time, while the thread's buffer is one card, dirty
	 * already.
	 */
	private boolean batching;

	/** Marks the batching thread's buffer as this stream's: a number, not a reference. */
	private final long id = IDS.incrementAndGet();

	/**
	 * The batch's buffer when the batching thread's own held another stream's batch (one
	 * batch written inside another); otherwise {@code null}.
	 */
	private @Nullable BatchBuffer nestedBatch;

	/**
	 * Closed by another thread while a batch was under way: the batching thread finishes
	 * closing when the batch ends, after its frames.
	 */
	private boolean closeAfterBatch;

	/**
	 * Given up while the container held bytes the client had not taken: the response is
	 * completed once it has.
	 */
	private boolean completeWhenWritable;

	private volatile boolean closedByServer;

	/**
	 * Whether the server's close sends the {@code retry} field: not when it ends the
	 * stream for good.
	 */
	private boolean retryAtClose;

	private AsyncSseStream(AsyncContext context, ServletOutputStream out, Consumer<MessageStream> onClosed,
			Consumer<AsyncSseStream> onDone, @Nullable Duration retryOnClose, DeliveryScheduler timer,
			Duration closeTimeout) {
		this.context = context;
		this.out = out;
		this.onClosed = onClosed;
		this.onDone = onDone;
		this.retryOnClose = retryOnClose;
		this.timer = timer;
		this.closeTimeout = closeTimeout;
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
		response.setStatus(HttpServletResponse.SC_OK);
		response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
		response.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache, no-transform");
		response.setHeader("X-Accel-Buffering", "no");
		response.setBufferSize(RESPONSE_BUFFER_SIZE);
		AsyncContext context = request.startAsync(request, response);
		// The stream lives until the client leaves or the server closes it.
		context.setTimeout(0);
		AsyncSseStream stream = new AsyncSseStream(context, response.getOutputStream(), onClosed, onDone, retryOnClose,
				timer, closeTimeout);
		context.addListener(stream.new Listener());
		stream.out.setWriteListener(stream.new Writer());
		return stream;
	}

	@Override
	public void send(@Nullable String eventId, String data) throws IOException {
		String payload = (data.indexOf('\n') < 0) ? data : data.replace("\n", "\ndata:");
		send(eventId, !data.isEmpty(), EncodedMessage.of(payload));
	}

	@Override
	public void send(@Nullable String eventId, EncodedMessage data) throws IOException {
		if (!copiedAsBytes(data)) {
			send(eventId, data.text());
			return;
		}
		// The message's bytes are shared with every other stream it goes to: copied, not
		// converted again.
		send(eventId, true, data);
	}

	@Override
	public void send(byte[] eventIdPrefix, long eventIdSequence, EncodedMessage data) throws IOException {
		if (!copiedAsBytes(data) || eventIdSequence < 0) {
			MessageStream.super.send(eventIdPrefix, eventIdSequence, data);
			return;
		}
		send(eventIdPrefix, eventIdSequence, true, data);
	}

	/**
	 * Whether a message's shared bytes go into the frame as they are; a message of
	 * several lines needs a {@code data:} per line, and an empty one is a priming event.
	 */
	private static boolean copiedAsBytes(EncodedMessage data) {
		return data.isSingleLine() && data.length() > 0;
	}

	private void send(@Nullable String eventId, boolean message, EncodedMessage payload) throws IOException {
		send((eventId != null) ? eventId.getBytes(StandardCharsets.UTF_8) : null, NO_SEQUENCE, message, payload);
	}

	/**
	 * Built as bytes in one array: this runs once per subscriber and notification.
	 * @param id the event id, or its prefix when a sequence follows; {@code null} for
	 * none
	 * @param sequence the event id's number after the prefix, or {@link #NO_SEQUENCE}
	 */
	private void send(byte @Nullable [] id, long sequence, boolean message, EncodedMessage payload) throws IOException {
		int sequenceDigits = (sequence != NO_SEQUENCE) ? digits(sequence) : 0;
		int idLine = (id != null) ? ID.length + id.length + sequenceDigits + 1 : 0;
		int length = idLine + (message ? MESSAGE_EVENT_LINE.length : 0) + DATA.length + payload.length() + 2;
		IOException failure;
		synchronized (this.lock) {
			if (this.state != State.OPEN) {
				throw new IOException("The stream is closed");
			}
			BatchBuffer batch = batchBuffer();
			if (batch != null) {
				frame(id, sequence, sequenceDigits, message, payload, batch.room(length), batch.length);
				batch.length += length;
				return;
			}
			byte[] frame = new byte[length];
			frame(id, sequence, sequenceDigits, message, payload, frame, 0);
			this.waiting.add(ByteBuffer.wrap(frame));
			failure = pumpOrFail();
		}
		if (failure != null) {
			ended();
			complete();
			throw failure;
		}
	}

	/**
	 * The buffer of this stream's batch, if the calling thread is writing one. Called
	 * with the lock held.
	 */
	private @Nullable BatchBuffer batchBuffer() {
		assert Thread.holdsLock(this.lock);
		if (!this.batching) {
			return null;
		}
		BatchBuffer nested = this.nestedBatch;
		if (nested != null) {
			return nested;
		}
		BatchBuffer mine = BUFFERS.get();
		return (mine.owner == this.id) ? mine : null;
	}

	private static void frame(byte @Nullable [] id, long sequence, int sequenceDigits, boolean message,
			EncodedMessage payload, byte[] frame, int from) {
		int at = from;
		if (id != null) {
			at = put(ID, frame, at);
			at = put(id, frame, at);
			at = putDigits(sequence, sequenceDigits, frame, at);
			frame[at++] = '\n';
		}
		if (message) {
			// SSE's default type is "message", but clients such as the MCP Java SDK
			// dispatch only events that name it.
			at = put(MESSAGE_EVENT_LINE, frame, at);
		}
		at = put(DATA, frame, at);
		at = payload.copyTo(frame, at);
		frame[at++] = '\n';
		frame[at] = '\n';
	}

	private static int put(byte[] part, byte[] frame, int at) {
		System.arraycopy(part, 0, frame, at, part.length);
		return at + part.length;
	}

	/** How many decimal digits a number of at least 0 has. */
	private static int digits(long value) {
		int digits = 1;
		for (long rest = value / 10; rest > 0; rest /= 10) {
			digits++;
		}
		return digits;
	}

	/** Write a number of at least 0 in decimal, in its {@code digits}: none for none. */
	private static int putDigits(long value, int digits, byte[] frame, int at) {
		int end = at + digits;
		long rest = value;
		for (int i = end - 1; i >= at; i--) {
			frame[i] = (byte) ('0' + (rest % 10));
			rest /= 10;
		}
		return end;
	}

	@Override
	public void prime(String eventId) throws IOException {
		StringBuilder frame = new StringBuilder("id:").append(eventId).append('\n');
		appendData(frame, "");
		write(frame);
	}

	@Override
	public void sendComment(String comment) throws IOException {
		write(new StringBuilder(":").append(comment).append("\n\n"));
	}

	private static void appendData(StringBuilder frame, String data) {
		frame.append("data:").append(data.replace("\n", "\ndata:")).append("\n\n");
	}

	/**
	 * Hold the batch's frames until it ends, then hand them to the container together:
	 * one flush, which on a socket the client keeps up with is one system call.
	 */
	@Override
	public void sendBatch(int maxBytes, BatchWriter writer) throws IOException {
		synchronized (this.lock) {
			if (this.state != State.OPEN) {
				throw new IOException("The stream is closed");
			}
			BatchBuffer batch = BUFFERS.get();
			if (batch.owner != 0) {
				batch = new BatchBuffer();
				this.nestedBatch = batch;
			}
			batch.owner = this.id;
			this.batching = true;
		}
		try {
			assert !Thread.holdsLock(this.lock) : "Lock order: outbox, then stream";
			while (writer.writeNext(this)) {
				synchronized (this.lock) {
					BatchBuffer batch = batchBuffer();
					if (batch == null || batch.length >= maxBytes) {
						break;
					}
				}
			}
		}
		finally {
			handOverBatch();
		}
	}

	private void handOverBatch() throws IOException {
		IOException failure = null;
		boolean close;
		synchronized (this.lock) {
			BatchBuffer batch = batchBuffer();
			this.batching = false;
			this.nestedBatch = null;
			if (this.state != State.DONE) {
				failure = (batch != null) ? handOver(batch) : pumpOrFail();
			}
			if (batch != null) {
				batch.release();
			}
			close = this.closeAfterBatch && failure == null;
			this.closeAfterBatch = false;
		}
		if (failure != null) {
			ended();
			complete();
			throw failure;
		}
		if (close) {
			finishClose();
		}
	}

	/**
	 * The batch's frames go to the container: straight from the buffer when nothing waits
	 * before them and the container is ready, else they wait in an array of their own
	 * (the thread's buffer is its next batch's). Called with the lock held.
	 */
	private @Nullable IOException handOver(BatchBuffer batch) {
		assert Thread.holdsLock(this.lock);
		try {
			if (batch.length > 0 && this.waiting.isEmpty() && ready()) {
				writeThrough(batch.current, 0, batch.length);
				batch.length = 0;
			}
		}
		catch (IOException | RuntimeException ex) {
			return failed(ex);
		}
		queueCopy(batch);
		return pumpOrFail();
	}

	/**
	 * The frames of a batch the stream is closed in go to what waits for the container,
	 * first. Called with the lock held.
	 */
	private void takeBatch() {
		assert Thread.holdsLock(this.lock);
		BatchBuffer batch = batchBuffer();
		if (batch != null) {
			queueCopy(batch);
		}
	}

	/** What the batch holds waits, in an array of its own. Called with the lock held. */
	private void queueCopy(BatchBuffer batch) {
		assert Thread.holdsLock(this.lock);
		if (batch.length > 0) {
			this.waiting.add(ByteBuffer.wrap(Arrays.copyOf(batch.current, batch.length)));
			batch.length = 0;
		}
	}

	private void write(CharSequence frame) throws IOException {
		write(frame.toString().getBytes(StandardCharsets.UTF_8));
	}

	private void write(byte[] bytes) throws IOException {
		IOException failure;
		synchronized (this.lock) {
			if (this.state != State.OPEN) {
				throw new IOException("The stream is closed");
			}
			BatchBuffer batch = batchBuffer();
			if (batch != null) {
				System.arraycopy(bytes, 0, batch.room(bytes.length), batch.length, bytes.length);
				batch.length += bytes.length;
				return;
			}
			this.waiting.add(ByteBuffer.wrap(bytes));
			failure = pumpOrFail();
		}
		if (failure != null) {
			ended();
			complete();
			throw failure;
		}
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
	 * Hand the container what waits, as far as it is ready for it. Called with the lock
	 * held; never blocks. A failure ends the stream (the caller reports it).
	 */
	private @Nullable IOException pumpOrFail() {
		assert Thread.holdsLock(this.lock);
		try {
			while (ready()) {
				ByteBuffer next = this.waiting.poll();
				if (next == null) {
					if (this.needsFlush) {
						this.needsFlush = false;
						this.ready = false;
						this.out.flush();
						continue;
					}
					return null;
				}
				writeThrough(next.array(), next.arrayOffset() + next.position(), next.remaining());
			}
			// Not ready: the container calls onWritePossible once the client has taken
			// more.
			return null;
		}
		catch (IOException | RuntimeException ex) {
			return failed(ex);
		}
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
	 * The client went away, or the response completed under us: the stream is done.
	 * Called with the lock held.
	 */
	private IOException failed(Exception ex) {
		assert Thread.holdsLock(this.lock);
		this.state = State.DONE;
		this.waiting.clear();
		return (ex instanceof IOException io) ? io : new IOException(ex.getMessage(), ex);
	}

	/** Called with the lock held: everything written is in the container's hands. */
	private boolean handedOver() {
		assert Thread.holdsLock(this.lock);
		return this.waiting.isEmpty() && !this.needsFlush;
	}

	/**
	 * Called with the lock held: the client has taken everything written, so the response
	 * can complete without waiting for it. A container that is not ready still holds
	 * bytes of the last write (and calls {@code onWritePossible} once the client has
	 * taken them).
	 */
	private boolean containerHoldsNothing() {
		assert Thread.holdsLock(this.lock);
		try {
			return handedOver() && ready();
		}
		catch (RuntimeException ex) {
			// Completed under us: nothing is held any more.
			return true;
		}
	}

	@Override
	public boolean whenWritable(Runnable callback) {
		synchronized (this.lock) {
			if (this.state != State.OPEN) {
				// The next write fails, which tells the writer the stream is gone.
				return true;
			}
			try {
				if (handedOver() && ready()) {
					return true;
				}
			}
			catch (RuntimeException ex) {
				return true;
			}
			this.writableCallbacks.add(callback);
			return false;
		}
	}

	@Override
	public boolean isOpen() {
		synchronized (this.lock) {
			return this.state == State.OPEN;
		}
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
		synchronized (this.lock) {
			if (this.state != State.OPEN) {
				return;
			}
			this.closedByServer = true;
			this.retryAtClose = retry;
			this.state = State.CLOSING;
			if (this.batching && batchBuffer() == null) {
				// Another thread's batch: its frames go first, so that thread closes.
				this.closeAfterBatch = true;
				return;
			}
			// Closed by the writer of a batch (a last message, then close): what the
			// batch
			// wrote goes first.
			takeBatch();
		}
		finishClose();
	}

	/**
	 * The server's close, after the frames already written: a {@code retry} field unless
	 * the stream ends for good, then the response completes once the client has taken
	 * what waits.
	 */
	private void finishClose() {
		boolean closing;
		boolean complete = false;
		synchronized (this.lock) {
			// Not closing any more: given up, or ended by the client, meanwhile.
			closing = this.state == State.CLOSING;
			if (closing) {
				if (this.retryOnClose != null && this.retryAtClose) {
					this.waiting.add(ByteBuffer
						.wrap(("retry:" + this.retryOnClose.toMillis() + "\n\n").getBytes(StandardCharsets.UTF_8)));
				}
				complete = pumpOrFail() != null || containerHoldsNothing();
				if (complete) {
					this.state = State.DONE;
				}
			}
		}
		ended();
		if (complete) {
			complete();
		}
		else if (closing) {
			this.timer.schedule(this::abort, this.closeTimeout);
		}
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
		boolean complete;
		synchronized (this.lock) {
			if (this.state == State.DONE) {
				return;
			}
			if (this.state == State.OPEN) {
				this.closedByServer = true;
			}
			this.state = State.DONE;
			this.waiting.clear();
			complete = containerHoldsNothing();
			this.completeWhenWritable = !complete;
		}
		ended();
		if (complete) {
			complete();
		}
		else if (this.completed.compareAndSet(false, true)) {
			// Given up: only the container's end of the response is left.
			this.onDone.accept(this);
		}
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
		IOException failure;
		synchronized (this.lock) {
			if (this.state != State.OPEN || this.batching) {
				return false;
			}
			if (this.wroteSinceVisit) {
				this.wroteSinceVisit = false;
				this.quietVisits = 0;
				return false;
			}
			if (++this.quietVisits < 2) {
				return false;
			}
			try {
				if (!handedOver() || !ready()) {
					return false;
				}
			}
			catch (RuntimeException ex) {
				// Completed under us: the container has told, or is telling, the
				// listener.
				return false;
			}
			this.waiting.add(ByteBuffer.wrap(HEARTBEAT));
			failure = pumpOrFail();
			this.wroteSinceVisit = false;
			this.quietVisits = 0;
		}
		if (failure != null) {
			ended();
			complete();
			return false;
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
		return this.closedByServer;
	}

	private void ended() {
		assert !Thread.holdsLock(this.lock) : "Lock order: outbox, then stream";
		if (this.reported.compareAndSet(false, true)) {
			this.onClosed.accept(this);
		}
	}

	private void complete() {
		if (this.completed.compareAndSet(false, true)) {
			try {
				completeContext();
			}
			finally {
				this.onDone.accept(this);
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
	 * response must be completed for
	 */
	private void containerEnded(boolean completeIt) {
		synchronized (this.lock) {
			this.state = State.DONE;
			this.waiting.clear();
			this.writableCallbacks.clear();
		}
		ended();
		if (completeIt) {
			// Even if this stream completed the response before: a failed write of what
			// the client never took puts the container back into error handling, which
			// ends in an error dispatch unless a listener completes the response again,
			// and the error page is then written into the event stream (Spring MVC
			// refuses
			// it with a WARN, "No converter ... with preset Content-Type
			// 'text/event-stream'").
			completeContext();
		}
		if (this.completed.compareAndSet(false, true)) {
			this.onDone.accept(this);
		}
	}

	private final class Writer implements WriteListener {

		@Override
		public void onWritePossible() {
			List<Runnable> callbacks = List.of();
			boolean complete = false;
			IOException failure = null;
			synchronized (AsyncSseStream.this.lock) {
				if (AsyncSseStream.this.state == State.DONE) {
					if (AsyncSseStream.this.completeWhenWritable) {
						// Given up: complete once the client has taken what the container
						// holds.
						failure = pumpOrFail();
						if (failure == null && containerHoldsNothing()) {
							AsyncSseStream.this.completeWhenWritable = false;
							complete = true;
						}
					}
				}
				else {
					failure = pumpOrFail();
					if (failure == null && handedOver() && ready()) {
						if (AsyncSseStream.this.state == State.CLOSING && !AsyncSseStream.this.closeAfterBatch) {
							AsyncSseStream.this.state = State.DONE;
							complete = true;
						}
						else {
							callbacks = List.copyOf(AsyncSseStream.this.writableCallbacks);
							AsyncSseStream.this.writableCallbacks.clear();
						}
					}
				}
			}
			if (failure != null) {
				containerEnded(true);
				return;
			}
			if (complete) {
				// A given-up stream has told its owners already, so complete() would not.
				completeContext();
				if (AsyncSseStream.this.completed.compareAndSet(false, true)) {
					AsyncSseStream.this.onDone.accept(AsyncSseStream.this);
				}
			}
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

	/**
	 * A thread's buffer for the frames of a batch: kept by the thread, marked with the
	 * stream whose batch it holds.
	 */
	private static final class BatchBuffer {

		/** The most a thread keeps: a larger batch gets a buffer of its own. */
		static final int MAX_SIZE = 64 * 1024;

		/** What the thread keeps for its next batch. */
		byte[] kept = new byte[1024];

		/** The batch's bytes: {@link #kept}, or a larger copy when it outgrew it. */
		byte[] current = this.kept;

		int length;

		/** The id of the stream whose batch this holds, or 0. */
		long owner;

		/** Room for {@code more} bytes after {@link #length}. */
		byte[] room(int more) {
			int needed = this.length + more;
			if (this.current.length < needed) {
				int size = this.current.length;
				while (size < needed) {
					size *= 2;
				}
				this.current = Arrays.copyOf(this.current, size);
			}
			return this.current;
		}

		/** The batch is over: the buffer is free for the thread's next batch. */
		void release() {
			if (this.current != this.kept && this.current.length <= MAX_SIZE) {
				this.kept = this.current;
			}
			this.current = this.kept;
			this.length = 0;
			this.owner = 0;
		}

	}

}
