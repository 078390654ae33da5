package io.github.mcpsubscriptions.notification;

import java.io.IOException;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

import io.github.mcpsubscriptions.subscription.CoverageRules;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.subscription.SubscriptionFilter;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import io.github.mcpsubscriptions.subscription.SubscriptionMatch;
import io.github.mcpsubscriptions.thread.ExecutorShutdown;
import io.github.mcpsubscriptions.thread.McpThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Turns changes into notifications, behind the {@link NotificationEngine} facade. Changes
 * arrive from the {@link ResourceChangeFeed} on the publisher's thread and are handed at
 * once to the dispatcher's own thread, which finds every matching subscription in the
 * index, checks the access policy and the filters, and decides one notification per
 * matching subscription. The subscriber's lane (a few dozen subscribers, one task at a
 * time) queues it in the subscriber's {@link Outbox} on a delivery thread. The publisher
 * never waits, and no I/O happens on its thread or on the dispatcher's.
 */
class NotificationDispatcher implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(NotificationDispatcher.class);

	/** A {@link Subscriber#dispatchSlot} for a subscriber told of the change already. */
	private static final int TOLD = -1;

	private final SubscriptionIndex<Subscriber> index;

	private final ResourceAccessPolicy accessPolicy;

	private final List<SubscriptionFilter> filters;

	private final NotificationEncoder encoder;

	private final DeliveryScheduler scheduler;

	/** The lanes with a free seat, the next subscriber's first; guarded by itself. */
	private final Deque<DeliveryLane> lanesWithSeats = new ArrayDeque<>();

	/** The lanes the current task gives work, on the dispatcher's thread only. */
	private final List<DeliveryLane> lanesToHandOver = new ArrayList<>();

	/** Numbers the changes fanned out, on the dispatcher's thread only. */
	private long changeSequence;

	/** The dispatcher's thread, for the confinement checks: set with -ea only. */
	private @Nullable Thread dispatching;

	private final Clock clock;

	private final int outboxCapacity;

	private final Function<String, Duration> minInterval;

	private final NotificationStats stats = new NotificationStats();

	private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();

	private final AtomicInteger backlog = new AtomicInteger();

	private volatile DispatchObserver observer = DispatchObserver.NONE;

	private volatile WriteBatch writeBatch = WriteBatch.DEFAULT;

	private volatile @Nullable ResyncTargets resyncTargets;

	private volatile Predicate<String> listedResources = (uri) -> false;

	private volatile int detachedOutboxCapacity = Integer.MAX_VALUE;

	private final ExecutorService executor = McpThreads.singleThread("mcp-dispatch");

	/**
	 * Create a dispatcher and subscribe it to the feed.
	 * @param feed where changes come from
	 * @param index the subscriptions
	 * @param accessPolicy checked for every notification
	 * @param filters all must agree for a notification to be queued
	 * @param encoder writes notifications
	 * @param scheduler runs outbox drains
	 * @param clock the clock for rate limits
	 * @param outboxCapacity how many notifications may wait per subscriber
	 * @param minInterval the minimum interval between notifications of a subscription, by
	 * its URI
	 */
	NotificationDispatcher(ResourceChangeFeed feed, SubscriptionIndex<Subscriber> index,
			ResourceAccessPolicy accessPolicy, List<SubscriptionFilter> filters, NotificationEncoder encoder,
			DeliveryScheduler scheduler, Clock clock, int outboxCapacity, Function<String, Duration> minInterval) {
		this.index = index;
		this.accessPolicy = accessPolicy;
		this.filters = List.copyOf(filters);
		this.encoder = encoder;
		this.scheduler = scheduler;
		this.clock = clock;
		this.outboxCapacity = outboxCapacity;
		this.minInterval = minInterval;
		feed.subscribe(this::onChange);
		feed.subscribeResourceListChanged(this::resourceListChanged);
	}

	/**
	 * Register a subscriber whose notifications are written as plain SSE events.
	 * @param id an id for logs and reports
	 * @param principal the subscriber's principal, or {@code null}
	 * @param listChanges whether it gets {@code list_changed}
	 * @param meta entries for the {@code _meta} of its notifications
	 * @return the subscriber, with its outbox
	 */
	Subscriber register(String id, @Nullable Principal principal, boolean listChanges, Map<String, Object> meta) {
		return register(id, principal, listChanges, meta, EventLog.NONE);
	}

	/**
	 * Register a subscriber, its writer chain built once, here: a resync becomes the
	 * resyncs {@link ResyncTargets} names ({@link #write}), each notification is encoded
	 * for the subscriber, and the event log gives it its event id, records it and writes
	 * it to the stream. Nothing in the chain calls back into the engine.
	 * @param id an id for logs and reports
	 * @param principal the subscriber's principal, or {@code null}
	 * @param listChanges whether it gets {@code list_changed}
	 * @param meta entries for the {@code _meta} of its notifications
	 * @param eventLog the chain's last link
	 * @return the subscriber, with its outbox
	 */
	Subscriber register(String id, @Nullable Principal principal, boolean listChanges, Map<String, Object> meta,
			EventLog eventLog) {
		return register(id, principal, listChanges, meta, (subscriber) -> (stream, notification) -> eventLog
			.send(stream, notification.position(), this.encoder.encodeMessage(notification, subscriber)));
	}

	/**
	 * Register a subscriber with a writer of its own, for the engine's tests.
	 * @param id an id for logs and reports
	 * @param principal the subscriber's principal, or {@code null}
	 * @param listChanges whether it gets {@code list_changed}
	 * @param meta entries for the {@code _meta} of its notifications
	 * @param writer creates the subscriber's writer
	 * @return the subscriber, with its outbox
	 */
	Subscriber register(String id, @Nullable Principal principal, boolean listChanges, Map<String, Object> meta,
			Function<Subscriber, Outbox.Writer> writer) {
		Subscriber subscriber = new Subscriber(id, principal, listChanges, meta);
		this.encoder.prepare(subscriber);
		Outbox.Writer own = writer.apply(subscriber);
		subscriber.setOutbox(new Outbox(this.outboxCapacity, this.detachedOutboxCapacity, this.minInterval, this.clock,
				this.scheduler, (stream, notification) -> write(subscriber, own, stream, notification), this.stats,
				() -> this.index.subscriptionsOf(subscriber), this.writeBatch));
		subscriber.setLane(takeLaneSeat());
		this.subscribers.add(subscriber);
		return subscriber;
	}

	/**
	 * A seat in a lane with one free, so that lanes stay full as subscribers come and go:
	 * a change is then handed to as few lanes as its subscribers fill.
	 */
	private DeliveryLane takeLaneSeat() {
		synchronized (this.lanesWithSeats) {
			DeliveryLane lane = this.lanesWithSeats.peekFirst();
			if (lane == null) {
				lane = new DeliveryLane(this.scheduler,
						(subscriber, uri) -> this.index.subscriptionsOf(subscriber).contains(uri), this.stats);
				this.lanesWithSeats.addFirst(lane);
			}
			if (++lane.members == DeliveryLane.SIZE) {
				this.lanesWithSeats.removeFirst();
			}
			return lane;
		}
	}

	private void leaveLaneSeat(DeliveryLane lane) {
		synchronized (this.lanesWithSeats) {
			if (lane.members-- == DeliveryLane.SIZE) {
				this.lanesWithSeats.addLast(lane);
			}
		}
	}

	/**
	 * Write a notification; a resync's marker becomes the resyncs that name what the
	 * subscriber may re-read. They are chosen as they are written, on a delivery thread,
	 * because choosing them may list a template's instances (the application's code):
	 * never under the outbox's lock or on the dispatcher's thread.
	 */
	private void write(Subscriber subscriber, Outbox.Writer own, MessageStream stream,
			OutboundNotification notification) throws IOException {
		ResyncTargets targets = this.resyncTargets;
		String subscribedUri = notification.subscribedUri();
		if (!notification.resync() || targets == null || subscribedUri == null) {
			own.write(stream, notification);
			return;
		}
		for (OutboundNotification resync : OutboundNotification.resyncs(notification,
				targets.of(subscribedUri, subscriber.getPrincipal()))) {
			own.write(stream, resync);
		}
	}

	/**
	 * Set what a resync names for each subscription. Without it, a resync names the
	 * subscribed URI itself, which may be a template or a glob that cannot be read.
	 * @param resyncTargets the concrete resources that stand for a subscription
	 */
	void setResyncTargets(ResyncTargets resyncTargets) {
		this.resyncTargets = resyncTargets;
	}

	/**
	 * Set which resources {@code resources/list} names among those that change: a change
	 * that creates or deletes one of them (whoever wrote it, on whichever node) also
	 * tells every subscriber that wants it that the resource list changed. Without it,
	 * only {@link #resourceListChanged()} does.
	 * @param listedResources whether the list names a resource, by its URI
	 */
	void setListedResources(Predicate<String> listedResources) {
		this.listedResources = listedResources;
	}

	/**
	 * Encode a notification for a subscriber, in the wire format.
	 * @param notification the notification
	 * @param subscriber who it is for
	 * @return one line of JSON
	 */
	String encode(OutboundNotification notification, Subscriber subscriber) {
		return this.encoder.encode(notification, subscriber);
	}

	/**
	 * Give up every stream whose write has been blocked for longer than the timeout: a
	 * client that stopped reading. Each is detached at once (its subscriber will be told
	 * to resync) and closed; closing never waits for the blocked write.
	 * @param now the current time
	 * @param timeout the write timeout
	 * @return how many streams were given up
	 */
	int closeStalledStreams(Instant now, Duration timeout) {
		int stalled = 0;
		for (Subscriber subscriber : this.subscribers) {
			MessageStream stream = subscriber.getOutbox().takeStalledStream(now, timeout);
			if (stream != null) {
				stalled++;
				stream.close();
			}
		}
		return stalled;
	}

	/**
	 * Remove a subscriber and everything it held: subscriptions, waiting notifications.
	 * @param subscriber the subscriber
	 */
	void unregister(Subscriber subscriber) {
		if (this.subscribers.remove(subscriber)) {
			leaveLaneSeat(subscriber.getLane());
		}
		this.index.removeAll(subscriber);
		subscriber.getOutbox().close();
	}

	/**
	 * Add a subscription; the caller has validated it.
	 * @param subscriber the subscriber
	 * @param uri the URI subscribed to
	 * @return {@code false} if it existed already
	 * @throws IllegalStateException if the subscriber is no longer registered (its
	 * session or stream ended meanwhile); nothing is added then
	 */
	boolean subscribe(Subscriber subscriber, String uri) {
		boolean added = this.index.add(subscriber, uri);
		// unregister() removes the subscriber before its subscriptions: if it is gone
		// now,
		// either unregister() saw this subscription or it is ours to remove.
		if (!this.subscribers.contains(subscriber)) {
			this.index.remove(subscriber, uri);
			throw new IllegalStateException(subscriber + " is no longer registered");
		}
		if (added) {
			subscriber.addSubscriptions(1);
		}
		return added;
	}

	/**
	 * Remove a subscription and what waits for it.
	 * @param subscriber the subscriber
	 * @param uri the URI subscribed to
	 * @return whether there was such a subscription
	 */
	boolean unsubscribe(Subscriber subscriber, String uri) {
		boolean removed = this.index.remove(subscriber, uri);
		if (removed) {
			subscriber.addSubscriptions(-1);
		}
		subscriber.getOutbox().forget(uri);
		return removed;
	}

	/**
	 * Take a change from the feed: queued for the dispatcher's thread at once.
	 * @param change the change
	 */
	void onChange(ResourceChange change) {
		this.stats.eventsReceived.increment();
		submit(() -> this.observer.observe(change, () -> dispatch(change)));
	}

	/**
	 * Tell every subscriber to re-read those of its subscriptions that a test accepts, in
	 * order with the changes taken before: a source of changes found that it missed some.
	 * @param subscriptions which subscriptions, by their URI
	 */
	void resync(Predicate<String> subscriptions) {
		submit(() -> {
			for (Subscriber subscriber : this.subscribers) {
				offers(subscriber).resync(subscriber, subscriptions);
			}
		});
	}

	/**
	 * Tell every subscriber that wants it that the resource list changed.
	 */
	void resourceListChanged() {
		submit(this::offerListChanged);
	}

	private void offerListChanged() {
		OutboundNotification notification = OutboundNotification.listChanged(this.clock.instant());
		for (Subscriber subscriber : this.subscribers) {
			if (subscriber.isListChanges()) {
				tell(subscriber, notification);
			}
		}
	}

	/**
	 * Tell every subscriber that wants it that the tool list changed.
	 */
	void toolListChanged() {
		submit(() -> {
			OutboundNotification notification = OutboundNotification.toolListChanged(this.clock.instant());
			for (Subscriber subscriber : this.subscribers) {
				if (subscriber.isToolListChanges()) {
					tell(subscriber, notification);
				}
			}
		});
	}

	/**
	 * Tell every subscriber that wants it that the prompt list changed.
	 */
	void promptListChanged() {
		submit(() -> {
			OutboundNotification notification = OutboundNotification.promptListChanged(this.clock.instant());
			for (Subscriber subscriber : this.subscribers) {
				if (subscriber.isPromptListChanges()) {
					tell(subscriber, notification);
				}
			}
		});
	}

	/**
	 * Tell every subscriber that asked for it that an extension's list changed.
	 * @param method the notification's method, such as
	 * {@code notifications/events/list_changed}
	 */
	void extensionListChanged(String method) {
		submit(() -> {
			OutboundNotification notification = OutboundNotification.extensionListChanged(method, this.clock.instant());
			for (Subscriber subscriber : this.subscribers) {
				if (subscriber.isExtensionListChanges(method)) {
					tell(subscriber, notification);
				}
			}
		});
	}

	/**
	 * Queue a notification for a subscriber: on its lane, once the dispatcher's current
	 * task ends. On the dispatcher's thread only.
	 */
	private void tell(Subscriber subscriber, OutboundNotification notification) {
		assert Thread.currentThread() == this.dispatching : "On the dispatcher's thread only";
		offers(subscriber).tell(subscriber, notification);
	}

	private DeliveryLane.Offers offers(Subscriber subscriber) {
		assert Thread.currentThread() == this.dispatching : "On the dispatcher's thread only";
		DeliveryLane lane = subscriber.getLane();
		DeliveryLane.Offers offers = lane.building;
		if (offers == null) {
			offers = new DeliveryLane.Offers();
			lane.building = offers;
			this.lanesToHandOver.add(lane);
		}
		return offers;
	}

	/** Hand every lane what the task that ends gave it. */
	private void handOver() {
		assert Thread.currentThread() == this.dispatching : "On the dispatcher's thread only";
		for (DeliveryLane lane : this.lanesToHandOver) {
			DeliveryLane.Offers offers = lane.building;
			lane.building = null;
			if (offers != null) {
				lane.handOver(offers);
			}
		}
		this.lanesToHandOver.clear();
	}

	private boolean dispatchingOnThisThread() {
		this.dispatching = Thread.currentThread();
		return true;
	}

	private void submit(Runnable task) {
		this.backlog.incrementAndGet();
		try {
			this.executor.execute(() -> {
				try {
					// Recorded only with assertions on: the executor has one thread.
					assert dispatchingOnThisThread();
					task.run();
				}
				catch (RuntimeException ex) {
					logger.error("MCP notification dispatch failed", ex);
				}
				finally {
					handOver();
					this.backlog.decrementAndGet();
				}
			});
		}
		catch (RejectedExecutionException ex) {
			this.backlog.decrementAndGet();
		}
	}

	/**
	 * Set how much a subscriber's writer hands to its stream with one flush, for the
	 * subscribers registered from now on.
	 * @param writeBatch the bounds of a batch
	 */
	void setWriteBatch(WriteBatch writeBatch) {
		this.writeBatch = writeBatch;
	}

	/**
	 * Set how many notifications wait for a subscriber without a stream before they are
	 * replaced by resyncs, for the subscribers registered from now on; at most the outbox
	 * capacity.
	 * @param capacity the bound
	 */
	void setDetachedOutboxCapacity(int capacity) {
		if (capacity < 1) {
			throw new IllegalArgumentException(
					"The outbox capacity without a stream must be at least 1, was " + capacity);
		}
		this.detachedOutboxCapacity = capacity;
	}

	/**
	 * Observe every dispatch, for tracing.
	 * @param observer the observer
	 */
	void setObserver(DispatchObserver observer) {
		this.observer = observer;
	}

	private int dispatch(ResourceChange change) {
		Fanout fanout = new Fanout(change, ++this.changeSequence);
		int matches = this.index.forEachMatch(change.uri(), fanout);
		fanout.tellMerged();
		if (change.isCreationOrDeletion() && this.listedResources.test(change.uri())) {
			offerListChanged();
		}
		return matches;
	}

	/**
	 * One change on its way to the subscribers, match by match as the index finds them.
	 * Subscribers without correlation get one notification per change: the most specific
	 * of their matching subscriptions that passes the policy and filters. Each is marked
	 * with the change's number and its place among those to merge, so that a second match
	 * finds its first without a map lookup per subscriber.
	 */
	private final class Fanout implements BiConsumer<Subscriber, String> {

		private final ResourceChange change;

		private final long mark;

		private final SharedNotifications shared;

		private final Decisions decisions;

		private final List<Subscriber> merged = new ArrayList<>(0);

		private final List<String> mergedUris = new ArrayList<>(0);

		Fanout(ResourceChange change, long mark) {
			this.change = change;
			this.mark = mark;
			this.shared = new SharedNotifications(change, NotificationDispatcher.this.encoder);
			this.decisions = new Decisions(change);
		}

		@Override
		public void accept(Subscriber subscriber, String subscribedUri) {
			assert Thread.currentThread() == NotificationDispatcher.this.dispatching : "Dispatcher's thread only";
			if (!permitted(this.change, subscribedUri, subscriber.getPrincipal(), this.decisions)) {
				return;
			}
			if (NotificationDispatcher.this.encoder.correlates(subscriber)) {
				tell(subscriber, this.shared.of(subscribedUri, subscriber));
			}
			else if (subscriber.dispatchMark == this.mark) {
				int slot = subscriber.dispatchSlot;
				if (slot != TOLD) {
					this.mergedUris.set(slot,
							CoverageRules.moreSpecific(this.change.uri(), this.mergedUris.get(slot), subscribedUri));
				}
				// Else it was told already, with what seemed its only subscription:
				// another
				// one was being added meanwhile. One notification per change still holds.
			}
			else if (subscriber.getSubscriptions() <= 1) {
				// Nothing to merge with: told at once, while its memory is at hand,
				// rather
				// than in a second pass over thousands of subscribers.
				subscriber.dispatchMark = this.mark;
				subscriber.dispatchSlot = TOLD;
				tell(subscriber, this.shared.of(subscribedUri, subscriber));
			}
			else {
				subscriber.dispatchMark = this.mark;
				subscriber.dispatchSlot = this.merged.size();
				this.merged.add(subscriber);
				this.mergedUris.add(subscribedUri);
			}
		}

		/** Tell the subscribers whose matches were merged, once every match is in. */
		void tellMerged() {
			for (int i = 0; i < this.merged.size(); i++) {
				tell(this.merged.get(i), this.shared.of(this.mergedUris.get(i), this.merged.get(i)));
			}
		}

	}

	/**
	 * One notification of a change per subscription URI, shared by all its subscribers:
	 * it is encoded once, here, however many subscribers it goes to. The index yields a
	 * subscription's subscribers together, so the last one is kept at hand.
	 */
	private static final class SharedNotifications {

		private final ResourceChange change;

		private final NotificationEncoder encoder;

		private final Map<String, OutboundNotification> byUri = new HashMap<>();

		private @Nullable OutboundNotification last;

		SharedNotifications(ResourceChange change, NotificationEncoder encoder) {
			this.change = change;
			this.encoder = encoder;
		}

		OutboundNotification of(String subscribedUri, Subscriber subscriber) {
			OutboundNotification notification = this.last;
			if (notification == null || !subscribedUri.equals(notification.subscribedUri())) {
				notification = this.byUri.computeIfAbsent(subscribedUri,
						(uri) -> OutboundNotification.updated(this.change, uri));
				this.last = notification;
			}
			this.encoder.prepare(notification, subscriber);
			return notification;
		}

	}

	/**
	 * The notifications a change gives one subscriber whose subscriptions are in an index
	 * of its own, with the access policy, the filters and the correlation rule applied as
	 * for live delivery: what a replay that re-matches a shared change log writes.
	 * @param change the change
	 * @param subscriber the subscriber
	 * @param subscriptions its subscriptions, in an index from
	 * {@link SubscriptionIndex#emptyCopy()}
	 * @return the notifications: one per matching subscription for a correlating
	 * subscriber, else at most one
	 */
	List<OutboundNotification> notificationsFor(ResourceChange change, Subscriber subscriber,
			SubscriptionIndex<Subscriber> subscriptions) {
		List<OutboundNotification> notifications = new ArrayList<>();
		boolean correlates = this.encoder.correlates(subscriber);
		@Nullable String mostSpecific = null;
		Decisions decisions = new Decisions(change);
		for (SubscriptionMatch<Subscriber> match : subscriptions.match(change.uri())) {
			if (!permitted(change, match.subscribedUri(), subscriber.getPrincipal(), decisions)) {
				continue;
			}
			if (correlates) {
				notifications.add(OutboundNotification.updated(change, match.subscribedUri()));
			}
			else {
				mostSpecific = (mostSpecific != null)
						? CoverageRules.moreSpecific(change.uri(), mostSpecific, match.subscribedUri())
						: match.subscribedUri();
			}
		}
		if (mostSpecific != null) {
			notifications.add(OutboundNotification.updated(change, mostSpecific));
		}
		return notifications;
	}

	private boolean permitted(ResourceChange change, String subscribedUri, @Nullable Principal principal,
			Decisions decisions) {
		if (!decisions.canReceive(subscribedUri, principal)) {
			this.stats.denied.increment();
			return false;
		}
		if (!this.filters.isEmpty() && !accepted(
				new SubscriptionFilter.Candidate(change.uri(), subscribedUri, change.attributes(), principal))) {
			this.stats.filtered.increment();
			return false;
		}
		return true;
	}

	/**
	 * The access policy's answers for one change. They depend only on the subscription
	 * and the principal, which thousands of subscribers share, so each pair is asked
	 * once; the index yields a subscription's subscribers together, so the last answer is
	 * kept at hand.
	 */
	private final class Decisions {

		private final ResourceChange change;

		private final Map<Access, Boolean> decided = new HashMap<>();

		private @Nullable Access last;

		private boolean lastAllowed;

		Decisions(ResourceChange change) {
			this.change = change;
		}

		boolean canReceive(String subscribedUri, @Nullable Principal principal) {
			Access previous = this.last;
			if (previous != null && previous.principal() == principal
					&& previous.subscribedUri().equals(subscribedUri)) {
				return this.lastAllowed;
			}
			Access access = new Access(subscribedUri, principal);
			this.last = access;
			this.lastAllowed = this.decided.computeIfAbsent(access, (key) -> NotificationDispatcher.this.accessPolicy
				.canReceive(key.principal(), this.change.uri(), key.subscribedUri()));
			return this.lastAllowed;
		}

	}

	/**
	 * A subscription URI and the principal of a subscriber of it, the principal by
	 * identity: equal principals that are distinct objects are merely asked again (an
	 * authentication's own equality is too costly to compute per subscriber).
	 */
	private record Access(String subscribedUri, @Nullable Principal principal) {

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof Access that && this.principal == that.principal
					&& this.subscribedUri.equals(that.subscribedUri);
		}

		@Override
		public int hashCode() {
			return 31 * this.subscribedUri.hashCode() + System.identityHashCode(this.principal);
		}

	}

	/**
	 * How subscribers are told about a change covered by several of their subscriptions.
	 * @return the correlation mode
	 */
	CorrelationMode getCorrelation() {
		return this.encoder.getCorrelation();
	}

	private boolean accepted(SubscriptionFilter.Candidate candidate) {
		for (SubscriptionFilter filter : this.filters) {
			if (!filter.shouldNotify(candidate)) {
				return false;
			}
		}
		return true;
	}

	SubscriptionIndex<Subscriber> getIndex() {
		return this.index;
	}

	NotificationStats getStats() {
		return this.stats;
	}

	/**
	 * How many changes wait for the dispatcher's thread.
	 * @return the backlog
	 */
	int getBacklog() {
		return this.backlog.get();
	}

	Set<Subscriber> getSubscribers() {
		return Set.copyOf(this.subscribers);
	}

	@Override
	public void close() {
		ExecutorShutdown.now(this.executor);
	}

}
