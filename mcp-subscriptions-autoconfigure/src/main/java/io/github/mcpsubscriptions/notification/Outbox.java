package io.github.mcpsubscriptions.notification;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One subscriber's queue of notifications on their way to its stream.
 * <ul>
 * <li><b>Coalescing:</b> a notification with the same key (method, URI, subscribed URI)
 * as one still waiting replaces it in place, with the newer attributes.</li>
 * <li><b>Rate limits delay, never drop:</b> after a notification for a subscription, the
 * next one for it waits out the minimum interval; a timer then sends what waits, so the
 * last change is always told (trailing edge).</li>
 * <li><b>No stream yet:</b> notifications wait and go out when one attaches, up to a
 * smaller bound than a reading stream's: past it what waits is replaced by a resync of
 * every active subscription, which then stands for whatever follows (a session that never
 * reconnects holds no more than that).</li>
 * <li><b>A resync covers its subscription:</b> while one waits, later notifications of
 * that subscription are merged into it: the client re-reads after it anyway.</li>
 * <li><b>Bounded:</b> past the capacity the outbox overflows: what waits is dropped, the
 * stream is closed, and for every active subscription a resync notification is queued, so
 * the client learns it must re-read. A gap is never silent.</li>
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
 * arrives meanwhile waits here (coalesced, bounded), and the write timeout counts from
 * the write the client has not taken.</li>
 * </ul>
 *
 * @since 0.1.0
 */
final class Outbox {

	private static final Log logger = LogFactory.getLog(Outbox.class);

	private static final long NOT_WRITING = Long.MIN_VALUE;

	private static final long NEVER = Long.MIN_VALUE / 2;

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

	private final WaitingNotifications pending = new WaitingNotifications();

	/**
	 * The lock is the queue it guards, which is never handed out: a change is offered to
	 * thousands of outboxes in a row, and this is one object fewer to fetch for each.
	 */
	private final Object lock = this.pending;

	/** Made once: a drain starts for most offers. */
	private final Runnable drainTask = this::drain;

	private final Set<OutboundNotification.Key> delayed = new HashSet<>();

	private final Map<String, Instant> lastSent = new HashMap<>();

	private final int capacity;

	private final int detachedCapacity;

	private final Function<String, Duration> minInterval;

	/**
	 * Whether a minimum interval may hold a notification back: most outboxes have none.
	 */
	private final boolean rateLimited;

	private final Clock clock;

	private final DeliveryScheduler scheduler;

	private final Writer writer;

	private final NotificationStats stats;

	private final Supplier<Collection<String>> activeSubscriptions;

	private final int batchSize;

	private final int batchBytes;

	private @Nullable MessageStream stream;

	private @Nullable AttachAction attachAction;

	private @Nullable Replay replay;

	/** The stream the replay is for: a replay never continues on another stream. */
	private @Nullable MessageStream replayStream;

	private boolean keepAliveRequested;

	/**
	 * When the write the client has not taken yet began (the clock's millis), or
	 * {@link #NOT_WRITING}: a number rather than an {@code Instant}, as it is set for
	 * every batch and a reference stored into this long-lived object costs the garbage
	 * collector.
	 */
	private volatile long writeStartedAt = NOT_WRITING;

	private @Nullable MessageStream awaiting;

	private boolean draining;

	/**
	 * When a drain last found notifications in company (the clock's millis): for a while
	 * after, a lone one may wait for more.
	 */
	private long companyAt = NEVER;

	/** Whether the running drain has waited for company once already. */
	private boolean gathered;

	private @Nullable Runnable onWritable;

	/**
	 * The stream {@link #onWritable} is for: a callback never outlives its stream's turn.
	 */
	private @Nullable MessageStream onWritableStream;

	private @Nullable Instant wakeUpAt;

	private boolean closed;

	/**
	 * Whether a resync may wait in {@link #pending}: until one is queued, and again once
	 * the outbox has emptied, an offer need not look for one.
	 */
	private boolean resyncMayWait;

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
		if (capacity < 1) {
			throw new IllegalArgumentException("The outbox capacity must be at least 1, was " + capacity);
		}
		if (detachedCapacity < 1) {
			throw new IllegalArgumentException(
					"The outbox capacity without a stream must be at least 1, was " + detachedCapacity);
		}
		this.detachedCapacity = Math.min(detachedCapacity, capacity);
		this.batchSize = batch.maxNotifications();
		this.batchBytes = batch.maxBytes();
		this.capacity = capacity;
		this.minInterval = minInterval;
		this.rateLimited = !(minInterval instanceof MinIntervals intervals) || !intervals.isUnlimited();
		this.clock = clock;
		this.scheduler = scheduler;
		this.writer = writer;
		this.stats = stats;
		this.activeSubscriptions = activeSubscriptions;
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
			if (this.resyncMayWait && coveredByResync(notification)) {
				this.stats.coalesced.increment();
				return null;
			}
			// A notification with the same key keeps its place and takes the newer
			// attributes; a new one goes last, and is taken back if it does not fit.
			if (this.pending.put(notification) != null) {
				this.stats.coalesced.increment();
				return null;
			}
			this.resyncMayWait |= notification.resync();
			int waiting = this.pending.size() - 1;
			if (this.stream == null && waiting >= this.detachedCapacity) {
				// Nobody reads: what waits becomes a resync per subscription, which
				// covers
				// whatever else arrives until a stream attaches.
				this.pending.remove(notification.key());
				overflow();
				return null;
			}
			if (waiting < this.capacity) {
				return startDrain() ? this.drainTask : null;
			}
			this.pending.remove(notification.key());
			toClose = overflow();
		}
		if (toClose != null) {
			toClose.close();
		}
		return null;
	}

	/**
	 * Whether a resync of the notification's subscription waits: it tells the client to
	 * re-read after this change too. Called with the lock held.
	 */
	private boolean coveredByResync(OutboundNotification notification) {
		assert Thread.holdsLock(this.lock);
		String subscribedUri = notification.subscribedUri();
		if (subscribedUri == null || notification.resync()) {
			return false;
		}
		OutboundNotification waiting = this.pending
			.get(OutboundNotification.resync(subscribedUri, Instant.EPOCH).key());
		return waiting != null && waiting.resync();
	}

	/** Called with the lock held. */
	private @Nullable MessageStream overflow() {
		assert Thread.holdsLock(this.lock);
		this.stats.overflows.increment();
		this.stats.droppedOnOverflow.add(this.pending.size() + 1);
		this.pending.clear();
		this.delayed.clear();
		queueResyncs();
		MessageStream current = this.stream;
		this.stream = null;
		this.replay = null;
		this.replayStream = null;
		return current;
	}

	/**
	 * Queue a resync notification for every active subscription: the client may have
	 * missed changes and should re-read. Called with the lock held.
	 */
	private void queueResyncs() {
		assert Thread.holdsLock(this.lock);
		queueResyncs((subscribedUri) -> true);
	}

	/** Called with the lock held. */
	private void queueResyncs(Predicate<String> subscriptions) {
		assert Thread.holdsLock(this.lock);
		Instant now = this.clock.instant();
		for (String subscribedUri : this.activeSubscriptions.get()) {
			if (!subscriptions.test(subscribedUri)) {
				continue;
			}
			if (this.pending.size() >= this.capacity) {
				break;
			}
			OutboundNotification resync = OutboundNotification.resync(subscribedUri, now);
			this.pending.put(resync);
			this.resyncMayWait = true;
			this.stats.resyncsQueued.increment();
		}
	}

	/**
	 * Tell the client, on its next stream, to re-read every subscription (after a gap
	 * that replay cannot fill).
	 */
	void resync() {
		synchronized (this.lock) {
			if (!this.closed) {
				queueResyncs();
			}
		}
		requestDrain();
	}

	/**
	 * Tell the client to re-read some of its subscriptions (after a gap in a source that
	 * feeds only some resources).
	 * @param subscriptions which subscriptions, by their URI
	 */
	void resync(Predicate<String> subscriptions) {
		synchronized (this.lock) {
			if (!this.closed) {
				queueResyncs(subscriptions);
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
			this.pending.removeIf((notification) -> subscribedUri.equals(notification.subscribedUri()));
			this.delayed.removeIf((key) -> subscribedUri.equals(key.subscribedUri()));
			this.lastSent.remove(subscribedUri);
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
			if (!this.closed && this.stream == stream) {
				this.replay = replay;
				this.replayStream = stream;
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
			this.stream = stream;
			this.attachAction = action;
			this.replay = null;
			this.replayStream = null;
			// A stream given up while the client had not taken a write does not count
			// against
			// the new one.
			this.awaiting = null;
			this.writeStartedAt = NOT_WRITING;
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
			if (this.stream == null || this.draining || this.awaiting == this.stream) {
				return;
			}
			this.keepAliveRequested = true;
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
		long started = this.writeStartedAt;
		if (started == NOT_WRITING || now.toEpochMilli() - started <= timeout.toMillis()) {
			return null;
		}
		synchronized (this.lock) {
			MessageStream stalled = this.stream;
			if (stalled == null) {
				return null;
			}
			this.stream = null;
			this.awaiting = null;
			this.writeStartedAt = NOT_WRITING;
			this.replay = null;
			this.replayStream = null;
			this.stats.stalls.increment();
			if (!this.closed) {
				queueResyncs();
			}
			return stalled;
		}
	}

	/**
	 * Queue a resync notification for every active subscription, as the writer (from an
	 * {@link AttachAction}).
	 */
	void queueResync() {
		synchronized (this.lock) {
			if (!this.closed) {
				queueResyncs();
			}
		}
	}

	/**
	 * Stop writing to a stream, if it is the current one.
	 * @param stream the stream
	 */
	void detach(MessageStream stream) {
		synchronized (this.lock) {
			if (this.stream == stream) {
				this.stream = null;
			}
			if (this.replayStream == stream) {
				this.replay = null;
				this.replayStream = null;
			}
			if (this.awaiting == stream) {
				this.awaiting = null;
				this.writeStartedAt = NOT_WRITING;
			}
			if (this.onWritableStream == stream) {
				this.onWritable = null;
				this.onWritableStream = null;
			}
		}
	}

	/**
	 * Drop everything and accept nothing more. The stream is left to its owner.
	 */
	void close() {
		synchronized (this.lock) {
			this.closed = true;
			this.stream = null;
			this.awaiting = null;
			this.onWritable = null;
			this.onWritableStream = null;
			this.replay = null;
			this.replayStream = null;
			this.pending.clear();
			this.delayed.clear();
			this.lastSent.clear();
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

	int getCapacity() {
		return this.capacity;
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
		boolean work = !this.pending.isEmpty() || this.attachAction != null || this.keepAliveRequested
				|| (this.replay != null && this.replayStream == this.stream);
		if (this.draining || this.stream == null || this.awaiting == this.stream || !work) {
			return false;
		}
		this.draining = true;
		return true;
	}

	/**
	 * Called with the lock held: what the stream calls once the client has taken the last
	 * write, made once per stream rather than once per batch.
	 */
	private Runnable writableCallback(MessageStream target) {
		assert Thread.holdsLock(this.lock);
		Runnable callback = this.onWritable;
		if (callback == null || this.onWritableStream != target) {
			callback = () -> writable(target);
			this.onWritable = callback;
			this.onWritableStream = target;
		}
		return callback;
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
			MessageStream target;
			Batch batch;
			synchronized (this.lock) {
				target = this.stream;
				if (target != null) {
					if (!target.whenWritable(writableCallback(target))) {
						// The client has not taken the last write: no thread waits for
						// it.
						this.awaiting = target;
						if (this.writeStartedAt == NOT_WRITING) {
							this.writeStartedAt = this.clock.millis();
						}
						this.draining = false;
						return;
					}
					this.writeStartedAt = NOT_WRITING;
				}
				AttachAction action = this.attachAction;
				boolean keepAlive = this.keepAliveRequested;
				this.attachAction = null;
				this.keepAliveRequested = false;
				if (this.replay != null && this.replayStream != target) {
					this.replay = null;
					this.replayStream = null;
				}
				boolean replaying = this.replay != null;
				boolean notificationsNext = target != null && action == null && !keepAlive && !replaying;
				if (notificationsNext && gatherFirst()) {
					return;
				}
				OutboundNotification first = notificationsNext ? pollDue() : null;
				if (target == null || (first == null && action == null && !keepAlive && !replaying)) {
					this.draining = false;
					if (target != null && !this.pending.isEmpty()) {
						scheduleWakeUp();
					}
					return;
				}
				batch = new Batch(action, keepAlive, first);
			}
			try {
				assert !Thread.holdsLock(this.lock) : "Never written under the outbox's lock";
				this.writeStartedAt = this.clock.millis();
				target.sendBatch(this.batchBytes, batch);
			}
			catch (IOException ex) {
				this.writeStartedAt = NOT_WRITING;
				synchronized (this.lock) {
					OutboundNotification unwritten = batch.next;
					if (unwritten != null) {
						// The stream was gone before the batch began.
						putFirst(unwritten);
					}
					if (this.stream == target) {
						this.stream = null;
					}
					if (this.replayStream == target) {
						this.replay = null;
						this.replayStream = null;
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
				// one
				// goes on (once the stream has taken this batch).
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
		if (this.rateLimited || waiting == 0) {
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
	 * then the notifications that are due, up to the batch's size (the stream ends it at
	 * its byte budget).
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
					if (Outbox.this.stream == stream) {
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
					putFirst(notification);
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

	private @Nullable Replay replayFor(MessageStream stream) {
		synchronized (this.lock) {
			return (this.replayStream == stream) ? this.replay : null;
		}
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
				if (this.replay == replaying) {
					this.replay = null;
					this.replayStream = null;
				}
			}
		}
		return more;
	}

	/** A non-blocking stream has handed everything to the network: write on. */
	private void writable(MessageStream stream) {
		synchronized (this.lock) {
			if (this.awaiting != stream) {
				return;
			}
			this.awaiting = null;
			this.writeStartedAt = NOT_WRITING;
		}
		requestDrain();
	}

	/**
	 * The first waiting notification that no rate limit holds back. The clock is read
	 * only for a rate-limited subscription: this runs for every notification written.
	 * Called with the lock held.
	 */
	private @Nullable OutboundNotification pollDue() {
		assert Thread.holdsLock(this.lock);
		if (!this.rateLimited) {
			OutboundNotification first = this.pending.pollFirst();
			if (this.pending.isEmpty()) {
				this.resyncMayWait = false;
			}
			return first;
		}
		Instant now = null;
		Iterator<OutboundNotification> iterator = this.pending.iterator();
		while (iterator.hasNext()) {
			OutboundNotification candidate = iterator.next();
			String subscription = candidate.subscribedUri();
			Duration interval = (subscription != null && !candidate.resync()) ? this.minInterval.apply(subscription)
					: Duration.ZERO;
			if (!interval.isZero()) {
				if (now == null) {
					now = this.clock.instant();
				}
				Instant last = this.lastSent.get(subscription);
				if (last != null && now.isBefore(last.plus(interval))) {
					if (this.delayed.add(candidate.key())) {
						this.stats.delayed.increment();
					}
					continue;
				}
				this.lastSent.put(subscription, now);
			}
			iterator.remove();
			if (!this.delayed.isEmpty()) {
				this.delayed.remove(candidate.key());
			}
			if (this.pending.isEmpty()) {
				this.resyncMayWait = false;
			}
			return candidate;
		}
		return null;
	}

	/**
	 * Called with the lock held: wake up when the earliest delayed notification is due.
	 */
	private void scheduleWakeUp() {
		assert Thread.holdsLock(this.lock);
		Instant earliest = null;
		for (OutboundNotification waiting : this.pending) {
			Instant last = this.lastSent.get(waiting.subscribedUri());
			if (last != null && waiting.subscribedUri() != null) {
				Instant due = last.plus(this.minInterval.apply(waiting.subscribedUri()));
				if (earliest == null || due.isBefore(earliest)) {
					earliest = due;
				}
			}
		}
		if (earliest == null || (this.wakeUpAt != null && !earliest.isBefore(this.wakeUpAt))) {
			return;
		}
		this.wakeUpAt = earliest;
		Duration delay = Duration.between(this.clock.instant(), earliest);
		this.scheduler.schedule(() -> {
			synchronized (this.lock) {
				this.wakeUpAt = null;
			}
			requestDrain();
		}, delay.isNegative() ? Duration.ZERO : delay);
	}

	/** Called with the lock held. */
	private void putFirst(OutboundNotification notification) {
		assert Thread.holdsLock(this.lock);
		this.pending.putFirst(notification);
		this.resyncMayWait |= notification.resync();
	}

}
