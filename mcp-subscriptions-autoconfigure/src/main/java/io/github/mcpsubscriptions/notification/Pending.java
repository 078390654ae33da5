package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * What waits to be sent to one subscriber, and the rules of waiting:
 * <ul>
 * <li><b>Coalescing:</b> a notification with the same key (method, URI, subscribed URI)
 * as one still waiting takes its place, with the newer attributes.</li>
 * <li><b>A resync covers its subscription:</b> while one waits, later notifications of
 * that subscription are merged into it: the client re-reads after it anyway.</li>
 * <li><b>Rate limits delay, never drop:</b> after a notification of a subscription was
 * taken, the next one of it is due once the minimum interval has passed
 * ({@link #pollDue(long)}, {@link #nextDue()}).</li>
 * <li><b>Bounded:</b> at most the capacity waits, fewer while no stream is attached; an
 * offer past the bound is refused ({@link Offer#FULL}) and the caller
 * {@linkplain #overflow(Instant) overflows}: what waits is dropped and a resync of every
 * active subscription stands for it, so that a gap is never silent.</li>
 * </ul>
 * Pure: no threads, no locks, no streams, no scheduler; where time matters it is passed
 * in (nanoseconds of the outbox's clock for rate limits, an instant for the resyncs'
 * publication). Not thread-safe: the {@link Outbox} that holds it locks on it.
 */
final class Pending {

	/** {@link #nextDue()} when no rate limit holds anything back. */
	static final long NOTHING_HELD = Long.MAX_VALUE;

	/** What became of an offered notification. */
	enum Offer {

		/** It waits last. */
		QUEUED,

		/** It took the place of one that waited, or a waiting resync covers it. */
		COALESCED,

		/** It did not fit and was not queued: the caller overflows. */
		FULL

	}

	private final WaitingNotifications waiting = new WaitingNotifications();

	/** The keys a rate limit holds back, so that each is counted as delayed once. */
	private final Set<OutboundNotification.Key> delayed = new HashSet<>();

	/**
	 * When a notification of each rate-limited subscription was last taken (nanos).
	 */
	private final Map<String, Long> lastTaken = new HashMap<>();

	private final int capacity;

	private final int detachedCapacity;

	private final Function<String, Duration> minInterval;

	/**
	 * Whether a minimum interval may hold a notification back: most subscribers have
	 * none.
	 */
	private final boolean rateLimited;

	private final NotificationStats stats;

	private final Supplier<Collection<String>> activeSubscriptions;

	/**
	 * Whether a resync may wait: until one is queued, and again once everything waiting
	 * was taken, an offer need not look for one.
	 */
	private boolean resyncMayWait;

	Pending(int capacity, int detachedCapacity, Function<String, Duration> minInterval, NotificationStats stats,
			Supplier<Collection<String>> activeSubscriptions) {
		if (capacity < 1) {
			throw new IllegalArgumentException("The outbox capacity must be at least 1, was " + capacity);
		}
		if (detachedCapacity < 1) {
			throw new IllegalArgumentException(
					"The outbox capacity without a stream must be at least 1, was " + detachedCapacity);
		}
		this.capacity = capacity;
		this.detachedCapacity = Math.min(detachedCapacity, capacity);
		this.minInterval = minInterval;
		this.rateLimited = !(minInterval instanceof MinIntervals intervals) || !intervals.isUnlimited();
		this.stats = stats;
		this.activeSubscriptions = activeSubscriptions;
	}

	/**
	 * Offer a notification.
	 * @param notification the notification
	 * @param attached whether a stream reads (else the smaller bound applies)
	 * @return what became of it
	 */
	Offer offer(OutboundNotification notification, boolean attached) {
		if (this.resyncMayWait && coveredByResync(notification)) {
			this.stats.coalesced.increment();
			return Offer.COALESCED;
		}
		// A notification with the same key keeps its place and takes the newer
		// attributes; a new one goes last, and is taken back if it does not fit.
		if (this.waiting.put(notification) != null) {
			this.stats.coalesced.increment();
			return Offer.COALESCED;
		}
		this.resyncMayWait |= notification.resync();
		int before = this.waiting.size() - 1;
		if (before < (attached ? this.capacity : this.detachedCapacity)) {
			return Offer.QUEUED;
		}
		this.waiting.remove(notification.key());
		return Offer.FULL;
	}

	/**
	 * Whether a resync of the notification's subscription waits: it tells the client to
	 * re-read after this change too.
	 */
	private boolean coveredByResync(OutboundNotification notification) {
		String subscribedUri = notification.subscribedUri();
		if (subscribedUri == null || notification.resync()) {
			return false;
		}
		OutboundNotification waiting = this.waiting
			.get(OutboundNotification.resync(subscribedUri, Instant.EPOCH).key());
		return waiting != null && waiting.resync();
	}

	/**
	 * An offer did not fit: drop what waits (and the refused one) and queue a resync of
	 * every active subscription instead, which then stands for whatever follows.
	 * @param now the resyncs' publication time
	 */
	void overflow(Instant now) {
		this.stats.overflows.increment();
		this.stats.droppedOnOverflow.add(this.waiting.size() + 1);
		this.waiting.clear();
		this.delayed.clear();
		resync((subscribedUri) -> true, now);
	}

	/**
	 * Queue a resync of the active subscriptions that match, as many as fit: the client
	 * may have missed changes and should re-read.
	 * @param subscriptions which subscriptions, by their URI
	 * @param now the resyncs' publication time
	 */
	void resync(Predicate<String> subscriptions, Instant now) {
		for (String subscribedUri : this.activeSubscriptions.get()) {
			if (!subscriptions.test(subscribedUri)) {
				continue;
			}
			if (this.waiting.size() >= this.capacity) {
				break;
			}
			this.waiting.put(OutboundNotification.resync(subscribedUri, now));
			this.resyncMayWait = true;
			this.stats.resyncsQueued.increment();
		}
	}

	/**
	 * Drop what waits for a subscription that ended, and its rate limit's memory.
	 * @param subscribedUri the subscription's URI
	 */
	void forget(String subscribedUri) {
		this.waiting.removeIf((notification) -> subscribedUri.equals(notification.subscribedUri()));
		this.delayed.removeIf((key) -> subscribedUri.equals(key.subscribedUri()));
		this.lastTaken.remove(subscribedUri);
	}

	/** Drop everything, the rate limits' memory too. */
	void clear() {
		this.waiting.clear();
		this.delayed.clear();
		this.lastTaken.clear();
	}

	/**
	 * Take out the first waiting notification that no rate limit holds back; one held
	 * back is counted as delayed once.
	 * @param now the time (nanos)
	 * @return the notification, or {@code null} when none is due
	 */
	@Nullable OutboundNotification pollDue(long now) {
		return pollDue(() -> now);
	}

	/**
	 * Take out the first waiting notification that no rate limit holds back, reading the
	 * time only when a minimum interval applies to a candidate: this runs for every
	 * notification written, and most have none.
	 * @param clock the time (nanos)
	 * @return the notification, or {@code null} when none is due
	 */
	@Nullable OutboundNotification pollDue(LongSupplier clock) {
		if (!this.rateLimited) {
			return taken(this.waiting.pollFirst());
		}
		long now = 0;
		boolean timeRead = false;
		Iterator<OutboundNotification> iterator = this.waiting.iterator();
		while (iterator.hasNext()) {
			OutboundNotification candidate = iterator.next();
			long interval = heldFor(candidate);
			if (interval > 0) {
				if (!timeRead) {
					now = clock.getAsLong();
					timeRead = true;
				}
				String subscription = candidate.subscribedUri();
				Long last = this.lastTaken.get(subscription);
				if (last != null && now - last < interval) {
					if (this.delayed.add(candidate.key())) {
						this.stats.delayed.increment();
					}
					continue;
				}
				this.lastTaken.put(subscription, now);
			}
			iterator.remove();
			if (!this.delayed.isEmpty()) {
				this.delayed.remove(candidate.key());
			}
			return taken(candidate);
		}
		return null;
	}

	private @Nullable OutboundNotification taken(@Nullable OutboundNotification notification) {
		if (this.waiting.isEmpty()) {
			this.resyncMayWait = false;
		}
		return notification;
	}

	/**
	 * When the first notification a rate limit holds back is due (nanos of the clock
	 * {@link #pollDue(long)} was given), or {@link #NOTHING_HELD}.
	 * @return the due time
	 */
	long nextDue() {
		long earliest = NOTHING_HELD;
		if (this.lastTaken.isEmpty()) {
			return earliest;
		}
		for (OutboundNotification waiting : this.waiting) {
			long interval = heldFor(waiting);
			Long last = (interval > 0) ? this.lastTaken.get(waiting.subscribedUri()) : null;
			if (last != null) {
				earliest = Math.min(earliest, saturatedAdd(last, interval));
			}
		}
		return earliest;
	}

	/** The minimum interval (nanos) that applies to a notification, 0 for none. */
	private long heldFor(OutboundNotification notification) {
		String subscription = notification.subscribedUri();
		if (subscription == null || notification.resync()) {
			return 0;
		}
		Duration interval = this.minInterval.apply(subscription);
		if (interval.isZero()) {
			return 0;
		}
		// Longer than about 292 years is forever.
		return (interval.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L) ? Long.MAX_VALUE : interval.toNanos();
	}

	private static long saturatedAdd(long a, long b) {
		long sum = a + b;
		return (((a ^ sum) & (b ^ sum)) < 0) ? Long.MAX_VALUE : sum;
	}

	/**
	 * Put a notification that could not be written back first, unless something newer
	 * with its key took its place meanwhile.
	 * @param notification the notification
	 */
	void putBack(OutboundNotification notification) {
		this.waiting.putFirst(notification);
		this.resyncMayWait |= notification.resync();
	}

	/**
	 * The first waiting notification, left where it is.
	 * @return the notification, or {@code null}
	 */
	@Nullable OutboundNotification peekFirst() {
		return this.waiting.peekFirst();
	}

	int size() {
		return this.waiting.size();
	}

	boolean isEmpty() {
		return this.waiting.isEmpty();
	}

	int capacity() {
		return this.capacity;
	}

	/**
	 * Whether a rate limit may hold a notification back.
	 * @return whether any minimum interval is set
	 */
	boolean isRateLimited() {
		return this.rateLimited;
	}

	/**
	 * The clock's time in the unit {@link #pollDue(long)} takes.
	 * @param instant the clock's instant
	 * @return nanoseconds since the epoch
	 */
	static long nanos(Instant instant) {
		return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
	}

}
