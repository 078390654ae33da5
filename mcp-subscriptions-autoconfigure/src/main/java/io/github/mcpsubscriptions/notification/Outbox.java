package io.github.mcpsubscriptions.notification;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One subscriber's notifications on their way to its stream: what waits to be sent is a
 * {@link Pending} (coalescing, resync coverage, rate limits, bounds and overflow); this
 * drains it onto the {@link Attachment attached stream}.
 * <ul>
 * <li><b>No stream yet:</b> notifications wait and go out when one attaches, up to a
 * smaller bound than a reading stream's: past it what waits is replaced by a resync of
 * every active subscription, which then stands for whatever follows (a session that never
 * reconnects holds no more than that).</li>
 * <li><b>Overflow:</b> past the capacity, what waits is dropped, the stream is closed,
 * and for every active subscription a resync notification is queued, so the client learns
 * it must re-read. A gap is never silent.</li>
 * <li><b>Rate limits delay, never drop:</b> a timer sends what a minimum interval held
 * back once it is due, so the last change is always told (trailing edge).</li>
 * <li><b>One writer:</b> at most one drain runs at a time, so writes to a stream are
 * serialized and in order.</li>
 * <li><b>Batched:</b> what is due is written with one flush, up to a {@link WriteBatch}
 * budget; a drain with more to write then goes behind the other subscribers'.</li>
 * <li><b>Gathered at saturation:</b> once a drain of this outbox has found company for
 * its first notification, a lone one may wait for more while drains queue for their turn
 * (see {@link DeliveryScheduler#gather(Runnable, long)}), once per drain, unless it is
 * late already; a stream without company for a second writes at once again, so a single
 * change never waits.</li>
 * <li><b>Replays are paced like live delivery:</b> a {@link Replay} handed over when a
 * stream attaches is written a message at a time under the same budget, as the client
 * takes it, before anything waiting; it is never materialised whole.</li>
 * <li><b>No thread waits for a client:</b> when a non-blocking stream still holds what
 * the client has not taken, the drain ends and resumes on the stream's callback; what
 * arrives meanwhile waits (coalesced, bounded), and the write timeout counts from the
 * write the client has not taken.</li>
 * </ul>
 *
 * @since 0.1.0
 */
final class Outbox {

	private static final Log logger = LogFactory.getLog(Outbox.class);

	private static final long NEVER = Long.MIN_VALUE / 2;

	/** {@link #wakeUpAt} while no wake-up is scheduled. */
	private static final long NO_WAKE_UP = Long.MAX_VALUE;

	/** How long after company came a lone notification may wait for more. */
	private static final long COMPANY_MEMORY_MILLIS = 1000;

	/**
	 * Writes one notification to a stream.
	 *
	 * @since 0.1.0
	 */
	@FunctionalInterface
	public interface Writer {

		/**
		 * Write a notification.
		 * @param stream the stream
		 * @param notification the notification
		 * @throws IOException when the client is gone
		 */
		void write(MessageStream stream, OutboundNotification notification) throws IOException;

	}

	private final Pending pending;

	/**
	 * The lock is what waits, which is never handed out: a change is offered to thousands
	 * of outboxes in a row, and this is one object fewer to fetch for each.
	 */
	private final Object lock;

	/** Made once: a drain starts for most offers. */
	private final Runnable drainTask = this::drain;

	/** Made once: every attachment's writable callback calls it. */
	private final Consumer<Attachment> writableTask = this::writable;

	private final Clock clock;

	/**
	 * The clock in the unit {@link Pending} takes, read only where a rate limit applies.
	 */
	private final LongSupplier nanoClock;

	private final DeliveryScheduler scheduler;

	private final Writer writer;

	private final NotificationStats stats;

	private final int batchSize;

	private final int batchBytes;

	/**
	 * The stream written to and what belongs to it, or {@code null}. Volatile for the
	 * stall check, which looks at it without the lock first; changed under the lock.
	 */
	private volatile @Nullable Attachment attachment;

	/** Whether a drain runs (or is submitted, or waits for company). */
	private boolean draining;

	/**
	 * When a drain last found notifications in company (the clock's millis): for a while
	 * after, a lone one may wait for more.
	 */
	private long companyAt = NEVER;

	/** Whether the running drain has waited for company once already. */
	private boolean gathered;

	/** When the scheduled rate-limit wake-up is due (the pending's nanos). */
	private long wakeUpAt = NO_WAKE_UP;

	private boolean closed;

	Outbox(int capacity, Function<String, Duration> minInterval, Clock clock, DeliveryScheduler scheduler,
			Writer writer, NotificationStats stats, Supplier<Collection<String>> activeSubscriptions) {
		this(capacity, minInterval, clock, scheduler, writer, stats, activeSubscriptions, WriteBatch.DEFAULT);
	}

	Outbox(int capacity, Function<String, Duration> minInterval, Clock clock, DeliveryScheduler scheduler,
			Writer writer, NotificationStats stats, Supplier<Collection<String>> activeSubscriptions,
			WriteBatch batch) {
		this(capacity, capacity, minInterval, clock, scheduler, writer, stats, activeSubscriptions, batch);
	}

	Outbox(int capacity, int detachedCapacity, Function<String, Duration> minInterval, Clock clock,
			DeliveryScheduler scheduler, Writer writer, NotificationStats stats,
			Supplier<Collection<String>> activeSubscriptions, WriteBatch batch) {
		this.pending = new Pending(capacity, detachedCapacity, minInterval, stats, activeSubscriptions);
		this.lock = this.pending;
		this.batchSize = batch.maxNotifications();
		this.batchBytes = batch.maxBytes();
		this.clock = clock;
		this.nanoClock = () -> Pending.nanos(clock.instant());
		this.scheduler = scheduler;
		this.writer = writer;
		this.stats = stats;
	}

	/**
	 * Queue a notification, leaving the drain it starts to the caller.
	 * @param notification the notification
	 * @return the drain to run now, or {@code null} when none is to start
	 */
	@Nullable Runnable queue(OutboundNotification notification) {
		MessageStream toClose;
		synchronized (this.lock) {
			if (this.closed) {
				return null;
			}
			Attachment current = this.attachment;
			Pending.Offer offer = this.pending.offer(notification, current != null);
			if (offer == Pending.Offer.QUEUED) {
				return startDrain() ? this.drainTask : null;
			}
			if (offer == Pending.Offer.COALESCED) {
				return null;
			}
			this.pending.overflow(this.clock.instant());
			// Nobody reads, or the reader fell too far behind: it is given up.
			this.attachment = null;
			toClose = (current != null) ? current.stream : null;
		}
		if (toClose != null) {
			toClose.close();
		}
		return null;
	}

	/**
	 * Tell the client, on its next stream, to re-read every subscription (after a gap
	 * that replay cannot fill).
	 */
	void resync() {
		resync((subscribedUri) -> true);
	}

	/**
	 * Tell the client to re-read some of its subscriptions (after a gap in a source that
	 * feeds only some resources).
	 * @param subscriptions which subscriptions, by their URI
	 */
	void resync(Predicate<String> subscriptions) {
		synchronized (this.lock) {
			if (!this.closed) {
				this.pending.resync(subscriptions, this.clock.instant());
			}
		}
		requestDrain();
	}

	/**
	 * Drop what waits for a subscription that ended, so nothing is told after
	 * unsubscribe.
	 * @param subscribedUri the subscription's URI
	 */
	void forget(String subscribedUri) {
		synchronized (this.lock) {
			this.pending.forget(subscribedUri);
		}
	}

	/**
	 * What to write to a stream when it attaches, before any waiting notification: a
	 * priming event, a replay. It runs as the stream's only writer.
	 *
	 * @since 0.1.0
	 */
	@FunctionalInterface
	public interface AttachAction {

		/**
		 * Write to the new stream.
		 * @param stream the stream
		 * @param outbox this outbox, to queue resyncs when a replay cannot fill a gap
		 * @throws IOException when the client is gone
		 */
		void attached(MessageStream stream, Outbox outbox) throws IOException;

	}

	/**
	 * Messages a new stream is owed before anything waiting (a replay), produced one at a
	 * time so that only what the client is about to take is ever held. It runs as the
	 * stream's only writer.
	 *
	 * @since 0.1.0
	 */
	@FunctionalInterface
	public interface Replay {

		/**
		 * Write the next message, if there is one.
		 * @param stream the stream
		 * @param outbox this outbox, to queue resyncs when the replay cannot go on
		 * @return {@code false} when the replay is over (nothing was written)
		 * @throws IOException when the client is gone
		 */
		boolean writeNext(MessageStream stream, Outbox outbox) throws IOException;

	}

	/**
	 * Write a replay to the stream being attached, after the attach action and before
	 * anything waiting, in batches under the write budget as the client takes them.
	 * Called from an {@link AttachAction}.
	 * @param stream the stream the action is writing to
	 * @param replay the replay
	 */
	void replay(MessageStream stream, Replay replay) {
		synchronized (this.lock) {
			Attachment current = this.attachment;
			if (!this.closed && current != null && current.stream == stream) {
				current.replay = replay;
			}
		}
	}

	/**
	 * Start writing to a stream.
	 * @param stream the stream
	 */
	void attach(MessageStream stream) {
		attach(stream, null);
	}

	/**
	 * Start writing to a stream, first running an action as its only writer.
	 * @param stream the stream
	 * @param action what to write first, or {@code null}
	 */
	void attach(MessageStream stream, @Nullable AttachAction action) {
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
			// Nothing of the previous stream carries over: a write its client had not
			// taken does not count against the new one, its replay is not the new one's.
			this.attachment = new Attachment(stream, action, this.writableTask);
		}
		requestDrain();
	}

	/**
	 * Write a keep-alive comment through the stream's writer, unless a write is under way
	 * (which keeps the connection busy anyway). A failed write closes the stream, which
	 * is how clients that vanished without closing TCP are found.
	 */
	void keepAlive() {
		synchronized (this.lock) {
			Attachment current = this.attachment;
			if (current == null || this.draining || current.awaiting) {
				return;
			}
			current.keepAlive = true;
		}
		requestDrain();
	}

	/**
	 * If a write to the stream has been blocked for longer than the timeout, give the
	 * stream up: it is detached, the client will be told to resync when it comes back,
	 * and the stream is returned for the caller to close.
	 * @param now the current time
	 * @param timeout the write timeout
	 * @return the stalled stream, or {@code null}
	 */
	@Nullable MessageStream takeStalledStream(Instant now, Duration timeout) {
		long nowMillis = now.toEpochMilli();
		long timeoutMillis = timeout.toMillis();
		Attachment seen = this.attachment;
		if (seen == null || !seen.stalled(nowMillis, timeoutMillis)) {
			return null;
		}
		synchronized (this.lock) {
			if (this.attachment != seen || !seen.stalled(nowMillis, timeoutMillis)) {
				// Another stream attached, or the client took the write meanwhile.
				return null;
			}
			this.attachment = null;
			this.stats.stalls.increment();
			if (!this.closed) {
				this.pending.resync((subscribedUri) -> true, this.clock.instant());
			}
			return seen.stream;
		}
	}

	/**
	 * Queue a resync notification for every active subscription, as the writer (from an
	 * {@link AttachAction}).
	 */
	void queueResync() {
		synchronized (this.lock) {
			if (!this.closed) {
				this.pending.resync((subscribedUri) -> true, this.clock.instant());
			}
		}
	}

	/**
	 * Stop writing to a stream, if it is the current one.
	 * @param stream the stream
	 */
	void detach(MessageStream stream) {
		synchronized (this.lock) {
			Attachment current = this.attachment;
			if (current != null && current.stream == stream) {
				this.attachment = null;
			}
		}
	}

	/**
	 * Drop everything and accept nothing more. The stream is left to its owner.
	 */
	void close() {
		synchronized (this.lock) {
			this.closed = true;
			this.attachment = null;
			this.pending.clear();
		}
	}

	/**
	 * How many notifications wait.
	 * @return the count
	 */
	int size() {
		synchronized (this.lock) {
			return this.pending.size();
		}
	}

	/**
	 * How many notifications may wait.
	 * @return the capacity
	 */
	int getCapacity() {
		return this.pending.capacity();
	}

	private void requestDrain() {
		synchronized (this.lock) {
			if (!startDrain()) {
				return;
			}
		}
		this.scheduler.execute(this.drainTask);
	}

	/**
	 * Called with the lock held: whether a drain is to start now (the caller then submits
	 * it).
	 */
	private boolean startDrain() {
		assert Thread.holdsLock(this.lock);
		Attachment current = this.attachment;
		if (this.draining || current == null || current.awaiting || (this.pending.isEmpty() && !current.owedFirst())) {
			return false;
		}
		this.draining = true;
		return true;
	}

	private void drain() {
		try {
			drainAll();
		}
		catch (Throwable ex) {
			// An Error out of a writer (OutOfMemoryError, StackOverflowError): the next
			// offer must be able to start a drain again, or this subscriber hears nothing
			// more.
			synchronized (this.lock) {
				this.draining = false;
			}
			throw ex;
		}
	}

	private void drainAll() {
		while (true) {
			Attachment current;
			Batch batch;
			synchronized (this.lock) {
				current = this.attachment;
				if (current == null) {
					this.draining = false;
					return;
				}
				if (!current.stream.whenWritable(current.onWritable)) {
					// The client has not taken the last write: no thread waits for it.
					current.awaiting = true;
					if (current.writeStartedAt == Attachment.NOT_WRITING) {
						current.writeStartedAt = this.clock.millis();
					}
					this.draining = false;
					return;
				}
				current.writeStartedAt = Attachment.NOT_WRITING;
				AttachAction action = current.action;
				boolean keepAlive = current.keepAlive;
				current.action = null;
				current.keepAlive = false;
				boolean notificationsNext = action == null && !keepAlive && current.replay == null;
				if (notificationsNext && gatherFirst()) {
					return;
				}
				OutboundNotification first = notificationsNext ? pollDue() : null;
				if (notificationsNext && first == null) {
					this.draining = false;
					if (!this.pending.isEmpty()) {
						scheduleWakeUp();
					}
					return;
				}
				batch = new Batch(action, keepAlive, first);
			}
			try {
				assert !Thread.holdsLock(this.lock) : "Never written under the outbox's lock";
				current.writeStartedAt = this.clock.millis();
				current.stream.sendBatch(this.batchBytes, batch);
			}
			catch (IOException ex) {
				current.writeStartedAt = Attachment.NOT_WRITING;
				synchronized (this.lock) {
					OutboundNotification unwritten = batch.next;
					if (unwritten != null) {
						// The stream was gone before the batch began.
						putBack(unwritten);
					}
					if (this.attachment == current) {
						this.attachment = null;
					}
					this.draining = false;
				}
				return;
			}
			catch (RuntimeException ex) {
				// A bug in an attach action must not wedge the outbox.
				logger.error("Writing to an MCP stream failed", ex);
			}
			if (!batch.exhausted) {
				// The batch's budget is spent: other streams' drains go first, then this
				// one goes on (once the stream has taken this batch).
				this.scheduler.execute(this.drainTask);
				return;
			}
			// The next round clears the write's start once the stream has taken it.
		}
	}

	/**
	 * Called with the lock held, when the drain is about to write notifications: whether
	 * it waits for company instead, handed to the scheduler.
	 */
	private boolean gatherFirst() {
		assert Thread.holdsLock(this.lock);
		boolean waited = this.gathered;
		this.gathered = false;
		int waiting = this.pending.size();
		if (this.pending.isRateLimited() || waiting == 0) {
			// A rate limit gathers on its own terms.
			return false;
		}
		long now = this.clock.millis();
		if (waiting > 1) {
			this.companyAt = now;
			return false;
		}
		if (waited || now - this.companyAt >= COMPANY_MEMORY_MILLIS) {
			// Once per drain; and a stream whose notifications stopped coming densely,
			// or never did (a single change to many streams), writes at once.
			return false;
		}
		OutboundNotification lone = this.pending.peekFirst();
		if (lone != null && this.scheduler.gather(this.drainTask, now - lone.publishedAt().toEpochMilli())) {
			this.gathered = true;
			this.stats.gathered.increment();
			return true;
		}
		return false;
	}

	/**
	 * One step of the drain, written with one flush: the attach action or a keep-alive,
	 * then the replay or the notifications that are due, up to the batch's size (the
	 * stream ends it at its byte budget). It writes only while its stream is the attached
	 * one. (It holds no reference to the attachment: one is made per notification
	 * written, and a field more would make each a few bytes larger.)
	 */
	private final class Batch implements MessageStream.BatchWriter {

		private @Nullable AttachAction action;

		private boolean keepAlive;

		private @Nullable OutboundNotification next;

		private int written;

		/** Whether the batch ended because nothing more was due (not for its budget). */
		boolean exhausted;

		Batch(@Nullable AttachAction action, boolean keepAlive, @Nullable OutboundNotification first) {
			this.action = action;
			this.keepAlive = keepAlive;
			this.next = first;
		}

		@Override
		public boolean writeNext(MessageStream stream) throws IOException {
			AttachAction attach = this.action;
			if (attach != null) {
				this.action = null;
				attach.attached(stream, Outbox.this);
				return true;
			}
			if (this.keepAlive) {
				this.keepAlive = false;
				stream.sendComment("keep-alive");
				return true;
			}
			Replay replaying = replayFor(stream);
			if (replaying != null) {
				if (this.written >= Outbox.this.batchSize) {
					return false;
				}
				if (writeReplayed(replaying, stream)) {
					this.written++;
					return true;
				}
			}
			OutboundNotification notification = this.next;
			this.next = null;
			if (notification == null) {
				if (this.written >= Outbox.this.batchSize) {
					return false;
				}
				synchronized (Outbox.this.lock) {
					if (isAttached(stream)) {
						notification = pollDue();
					}
				}
				if (notification == null) {
					this.exhausted = true;
					return false;
				}
			}
			this.written++;
			try {
				assert !Thread.holdsLock(Outbox.this.lock) : "Never written under the outbox's lock";
				Outbox.this.writer.write(stream, notification);
				Outbox.this.stats.sent(notification.publishedAt(), Outbox.this.clock);
			}
			catch (IOException ex) {
				synchronized (Outbox.this.lock) {
					// Keep it for the next stream, unless something newer took its place.
					putBack(notification);
				}
				throw ex;
			}
			catch (RuntimeException ex) {
				// A bug in a writer must not wedge the outbox: this one notification is
				// lost.
				logger.error("Writing an MCP notification failed", ex);
			}
			return true;
		}

	}

	/** The replay still owed to the stream, while it is the attached one. */
	private @Nullable Replay replayFor(MessageStream stream) {
		synchronized (this.lock) {
			Attachment current = this.attachment;
			return (current != null && current.stream == stream) ? current.replay : null;
		}
	}

	/** Called with the lock held: whether the stream is the one written to. */
	private boolean isAttached(MessageStream stream) {
		assert Thread.holdsLock(this.lock);
		Attachment current = this.attachment;
		return current != null && current.stream == stream;
	}

	/**
	 * Write the replay's next message.
	 * @return {@code false} when the replay is over
	 */
	private boolean writeReplayed(Replay replaying, MessageStream stream) throws IOException {
		boolean more;
		try {
			more = replaying.writeNext(stream, this);
		}
		catch (RuntimeException ex) {
			// What the replay could not write is a gap: never a silent one.
			logger.warn("Replaying to an MCP stream failed; its subscriptions are told to resync", ex);
			queueResync();
			more = false;
		}
		if (!more) {
			synchronized (this.lock) {
				Attachment current = this.attachment;
				if (current != null && current.replay == replaying) {
					current.replay = null;
				}
			}
		}
		return more;
	}

	/** A non-blocking stream has handed everything to the network: write on. */
	private void writable(Attachment attached) {
		synchronized (this.lock) {
			if (this.attachment != attached || !attached.awaiting) {
				return;
			}
			attached.awaiting = false;
			attached.writeStartedAt = Attachment.NOT_WRITING;
		}
		requestDrain();
	}

	/**
	 * Called with the lock held: the first waiting notification that no rate limit holds
	 * back. The clock is read only where a rate limit applies: this runs for every
	 * notification written.
	 */
	private @Nullable OutboundNotification pollDue() {
		assert Thread.holdsLock(this.lock);
		return this.pending.pollDue(this.nanoClock);
	}

	/**
	 * Called with the lock held: wake up when the earliest notification a rate limit
	 * holds back is due.
	 */
	private void scheduleWakeUp() {
		assert Thread.holdsLock(this.lock);
		long due = this.pending.nextDue();
		if (due == Pending.NOTHING_HELD || due >= this.wakeUpAt) {
			return;
		}
		this.wakeUpAt = due;
		long delay = due - this.nanoClock.getAsLong();
		this.scheduler.schedule(() -> {
			synchronized (this.lock) {
				this.wakeUpAt = NO_WAKE_UP;
			}
			requestDrain();
		}, Duration.ofNanos(Math.max(0, delay)));
	}

	/** Called with the lock held. */
	private void putBack(OutboundNotification notification) {
		assert Thread.holdsLock(this.lock);
		this.pending.putBack(notification);
	}

}
