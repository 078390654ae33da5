package io.github.mcpsubscriptions.notification;

import java.io.IOException;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.subscription.SubscriptionFilter;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import org.jspecify.annotations.Nullable;

/**
 * The delivery engine, as the rest of the server sees it: the one type through which
 * sessions, listen streams and the cluster register subscribers, subscribe and
 * unsubscribe, attach and detach streams, replay, and close. Everything behind it (the
 * dispatcher, the lanes, the outboxes, the encoder) is package-private.
 * <p>
 * A subscriber's writer chain is built once, when it is registered: a resync becomes the
 * resyncs of the concrete resources it stands for, each notification is encoded (its
 * bytes shared with the other subscribers of the change), and its {@link EventLog} gives
 * it an event id, records it for replay and writes it to the stream. The path of a
 * notification runs one way: the engine calls the event log, the event log calls the
 * stream, and neither calls back.
 *
 * @since 0.1.0
 */
public final class NotificationEngine implements AutoCloseable {

	/**
	 * The {@code _meta} key that marks a resync notification: the client should re-read
	 * the resource, since changes may have been missed.
	 */
	public static final String RESYNC_META = NotificationEncoder.RESYNC_META;

	private final NotificationDispatcher dispatcher;

	private NotificationEngine(NotificationDispatcher dispatcher) {
		this.dispatcher = dispatcher;
	}

	/**
	 * Start building an engine that takes its changes from a feed.
	 * @param feed where changes come from
	 * @param accessPolicy checked for every notification
	 * @param codec the JSON mapper notifications are written with
	 * @param scheduler runs the delivery
	 * @return a builder
	 */
	public static Builder builder(ResourceChangeFeed feed, ResourceAccessPolicy accessPolicy, JsonRpcCodec codec,
			DeliveryScheduler scheduler) {
		return new Builder(feed, accessPolicy, codec, scheduler);
	}

	/**
	 * Register a subscriber whose notifications are written as plain SSE events: a 2026
	 * listen stream.
	 * @param id an id for logs and reports
	 * @param principal the subscriber's principal, or {@code null}
	 * @param listChanges whether it gets {@code list_changed}
	 * @param meta entries for the {@code _meta} of its notifications
	 * @return the subscriber
	 */
	public Subscriber register(String id, @Nullable Principal principal, boolean listChanges,
			Map<String, Object> meta) {
		return register(id, principal, listChanges, meta, EventLog.NONE);
	}

	/**
	 * Register a subscriber whose messages get event ids and a replay log: a 2025
	 * session.
	 * @param id an id for logs and reports
	 * @param principal the subscriber's principal, or {@code null}
	 * @param listChanges whether it gets {@code list_changed}
	 * @param meta entries for the {@code _meta} of its notifications
	 * @param eventLog the last link of its writer chain
	 * @return the subscriber
	 */
	public Subscriber register(String id, @Nullable Principal principal, boolean listChanges, Map<String, Object> meta,
			EventLog eventLog) {
		return this.dispatcher.register(id, principal, listChanges, meta, eventLog);
	}

	/**
	 * Remove a subscriber and everything it held: subscriptions, waiting notifications.
	 * @param subscriber the subscriber
	 */
	public void unregister(Subscriber subscriber) {
		this.dispatcher.unregister(subscriber);
	}

	/**
	 * Add a subscription; the caller has validated it.
	 * @param subscriber the subscriber
	 * @param uri the URI subscribed to
	 * @return {@code false} if it existed already
	 * @throws IllegalStateException if the subscriber is no longer registered; nothing is
	 * added then
	 */
	public boolean subscribe(Subscriber subscriber, String uri) {
		return this.dispatcher.subscribe(subscriber, uri);
	}

	/**
	 * Remove a subscription and what waits for it.
	 * @param subscriber the subscriber
	 * @param uri the URI subscribed to
	 * @return whether there was such a subscription
	 */
	public boolean unsubscribe(Subscriber subscriber, String uri) {
		return this.dispatcher.unsubscribe(subscriber, uri);
	}

	/**
	 * Start writing a subscriber's notifications to a stream, first running an action as
	 * its only writer (an acknowledgement, a priming event, a replay).
	 * @param subscriber the subscriber
	 * @param stream the stream
	 * @param action what to write first, or {@code null}
	 */
	public void attach(Subscriber subscriber, MessageStream stream, @Nullable AttachAction action) {
		Outbox outbox = subscriber.getOutbox();
		outbox.attach(stream,
				(action != null) ? (target, self) -> action.attached(target, new Attachment(self, this)) : null);
	}

	/**
	 * Stop writing to a stream that ended; notifications wait for the next one.
	 * @param subscriber the subscriber
	 * @param stream the stream that ended
	 */
	public void detach(Subscriber subscriber, MessageStream stream) {
		subscriber.getOutbox().detach(stream);
	}

	/**
	 * Tell a subscriber to re-read every subscription: changes may have been lost.
	 * @param subscriber the subscriber
	 */
	public void resync(Subscriber subscriber) {
		subscriber.getOutbox().resync();
	}

	/**
	 * Tell every subscriber to re-read those of its subscriptions that a test accepts, in
	 * order with the changes taken before.
	 * @param subscriptions which subscriptions, by their URI
	 */
	public void resync(Predicate<String> subscriptions) {
		this.dispatcher.resync(subscriptions);
	}

	/**
	 * Give up every stream whose write has been blocked for longer than the timeout.
	 * @param now the current time
	 * @param timeout the write timeout
	 * @return how many streams were given up
	 */
	public int closeStalledStreams(Instant now, Duration timeout) {
		return this.dispatcher.closeStalledStreams(now, timeout);
	}

	/**
	 * The messages a change gives one subscriber whose subscriptions are in an index of
	 * its own, encoded for it, with the access policy, the filters and the correlation
	 * rule applied as for live delivery: what a replay that re-matches a shared change
	 * log writes.
	 * @param change the change
	 * @param subscriber the subscriber
	 * @param subscriptions its subscriptions, in an index from
	 * {@link SubscriptionIndex#emptyCopy()}
	 * @return the messages, in order
	 */
	public List<String> replayMessages(ResourceChange change, Subscriber subscriber,
			SubscriptionIndex<Subscriber> subscriptions) {
		List<OutboundNotification> notifications = this.dispatcher.notificationsFor(change, subscriber, subscriptions);
		List<String> messages = new ArrayList<>(notifications.size());
		for (OutboundNotification notification : notifications) {
			messages.add(this.dispatcher.encode(notification, subscriber));
		}
		return messages;
	}

	/**
	 * Take a change: queued for the dispatcher's thread at once.
	 * @param change the change
	 */
	public void onChange(ResourceChange change) {
		this.dispatcher.onChange(change);
	}

	/** Tell every subscriber that wants it that the resource list changed. */
	public void resourceListChanged() {
		this.dispatcher.resourceListChanged();
	}

	/** Tell every subscriber that wants it that the tool list changed. */
	public void toolListChanged() {
		this.dispatcher.toolListChanged();
	}

	/** Tell every subscriber that wants it that the prompt list changed. */
	public void promptListChanged() {
		this.dispatcher.promptListChanged();
	}

	/**
	 * Tell every listen stream that asked for it that an extension's list changed (such
	 * as the Events extension's event types).
	 * @param method the notification's method, such as
	 * {@code notifications/events/list_changed}
	 */
	public void extensionListChanged(String method) {
		this.dispatcher.extensionListChanged(method);
	}

	/**
	 * Observe every dispatch, for tracing.
	 * @param observer the observer
	 */
	public void setObserver(DispatchObserver observer) {
		this.dispatcher.setObserver(observer);
	}

	/**
	 * How subscribers are told about a change covered by several of their subscriptions.
	 * @return the correlation mode
	 */
	public CorrelationMode getCorrelation() {
		return this.dispatcher.getCorrelation();
	}

	/**
	 * The subscriptions of every subscriber on this node.
	 * @return the index
	 */
	public SubscriptionIndex<Subscriber> getIndex() {
		return this.dispatcher.getIndex();
	}

	/**
	 * The engine's counters.
	 * @return the statistics
	 */
	public NotificationStats getStats() {
		return this.dispatcher.getStats();
	}

	/**
	 * How many changes wait for the dispatcher's thread.
	 * @return the backlog
	 */
	public int getBacklog() {
		return this.dispatcher.getBacklog();
	}

	/**
	 * The subscribers registered now.
	 * @return a copy
	 */
	public Set<Subscriber> getSubscribers() {
		return this.dispatcher.getSubscribers();
	}

	/**
	 * How many notifications wait for a subscriber.
	 * @param subscriber the subscriber
	 * @return the count
	 */
	public int getWaiting(Subscriber subscriber) {
		return subscriber.getOutbox().size();
	}

	/**
	 * How many notifications may wait for a subscriber before it is told to resync.
	 * @param subscriber the subscriber
	 * @return the bound
	 */
	public int getCapacity(Subscriber subscriber) {
		return subscriber.getOutbox().getCapacity();
	}

	@Override
	public void close() {
		this.dispatcher.close();
	}

	/**
	 * What to write to a stream when it attaches, before any waiting notification: an
	 * acknowledgement, a priming event, a replay. It runs as the stream's only writer.
	 *
	 * @since 0.1.0
	 */
	@FunctionalInterface
	public interface AttachAction {

		/**
		 * Write to the new stream.
		 * @param stream the stream
		 * @param attachment what the action may ask of the subscriber's delivery
		 * @throws IOException when the client is gone
		 */
		void attached(MessageStream stream, Attachment attachment) throws IOException;

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
		 * @param attachment to queue resyncs when the replay cannot go on
		 * @return {@code false} when the replay is over (nothing was written)
		 * @throws IOException when the client is gone
		 */
		boolean writeNext(MessageStream stream, Attachment attachment) throws IOException;

	}

	/**
	 * A stream being attached, as its {@link AttachAction} sees it.
	 *
	 * @since 0.1.0
	 */
	public static final class Attachment {

		private final Outbox outbox;

		private final NotificationEngine engine;

		Attachment(Outbox outbox, NotificationEngine engine) {
			this.outbox = outbox;
			this.engine = engine;
		}

		/**
		 * Queue a resync for every subscription: a gap that replay cannot fill, never a
		 * silent one.
		 */
		public void queueResync() {
			this.outbox.queueResync();
		}

		/**
		 * Write a replay after the action and before anything waiting, in batches under
		 * the write budget as the client takes them.
		 * @param stream the stream the action is writing to
		 * @param replay the replay
		 */
		public void replay(MessageStream stream, Replay replay) {
			this.outbox.replay(stream, (target, self) -> replay.writeNext(target, this));
		}

		/** Count a stream that resumed from a {@code Last-Event-ID}. */
		public void countReplay() {
			this.engine.getStats().replayed();
		}

	}

	/**
	 * Builds a {@link NotificationEngine}.
	 *
	 * @since 0.1.0
	 */
	public static final class Builder {

		private final ResourceChangeFeed feed;

		private final ResourceAccessPolicy accessPolicy;

		private final JsonRpcCodec codec;

		private final DeliveryScheduler scheduler;

		private SubscriptionIndex<Subscriber> index = new SubscriptionIndex<>();

		private List<SubscriptionFilter> filters = List.of();

		private CorrelationMode correlation = CorrelationMode.AUTO;

		private Clock clock = Clock.systemUTC();

		private int outboxCapacity = 1000;

		private int detachedOutboxCapacity = Integer.MAX_VALUE;

		private Duration minInterval = Duration.ZERO;

		private Map<String, Duration> minIntervalByUri = Map.of();

		private @Nullable ResourceRegistry resources;

		private @Nullable DispatchObserver observer;

		private Builder(ResourceChangeFeed feed, ResourceAccessPolicy accessPolicy, JsonRpcCodec codec,
				DeliveryScheduler scheduler) {
			this.feed = feed;
			this.accessPolicy = accessPolicy;
			this.codec = codec;
			this.scheduler = scheduler;
		}

		/**
		 * Set the index the subscriptions are kept in (with the application's matchers).
		 * @param index an empty index
		 * @return this builder
		 */
		public Builder index(SubscriptionIndex<Subscriber> index) {
			this.index = index;
			return this;
		}

		/**
		 * Set the filters that all must agree for a notification to be queued.
		 * @param filters the filters
		 * @return this builder
		 */
		public Builder filters(List<SubscriptionFilter> filters) {
			this.filters = List.copyOf(filters);
			return this;
		}

		/**
		 * Set how a subscriber is told of a change several of its subscriptions cover.
		 * @param correlation the mode; {@link CorrelationMode#AUTO} by default
		 * @return this builder
		 */
		public Builder correlation(CorrelationMode correlation) {
			this.correlation = correlation;
			return this;
		}

		/**
		 * Set the clock of the rate limits and the latency.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * Set how many notifications may wait per subscriber before it is told to resync.
		 * @param capacity the bound; 1000 by default
		 * @return this builder
		 */
		public Builder outboxCapacity(int capacity) {
			this.outboxCapacity = capacity;
			return this;
		}

		/**
		 * Set how many notifications may wait for a subscriber without a stream (at most
		 * the outbox capacity).
		 * @param capacity the bound; the outbox capacity by default
		 * @return this builder
		 */
		public Builder detachedOutboxCapacity(int capacity) {
			this.detachedOutboxCapacity = capacity;
			return this;
		}

		/**
		 * Set the minimum interval between notifications of a subscription.
		 * @param interval the default
		 * @param byUri the intervals of the subscriptions a URI pattern names
		 * @return this builder
		 */
		public Builder minInterval(Duration interval, Map<String, Duration> byUri) {
			this.minInterval = interval;
			this.minIntervalByUri = Map.copyOf(byUri);
			return this;
		}

		/**
		 * Set the registry whose resources a resync names (the concrete instances a
		 * subscription stands for) and whose listed resources' creation or deletion also
		 * changes the resource list.
		 * @param resources the registry
		 * @return this builder
		 */
		public Builder resources(ResourceRegistry resources) {
			this.resources = resources;
			return this;
		}

		/**
		 * Observe every dispatch, for tracing.
		 * @param observer the observer
		 * @return this builder
		 */
		public Builder observer(DispatchObserver observer) {
			this.observer = observer;
			return this;
		}

		/**
		 * Build the engine and subscribe it to the feed.
		 * @return the engine
		 */
		public NotificationEngine build() {
			NotificationDispatcher dispatcher = new NotificationDispatcher(this.feed, this.index, this.accessPolicy,
					this.filters, new NotificationEncoder(this.codec, this.correlation), this.scheduler, this.clock,
					this.outboxCapacity, new MinIntervals(this.minInterval, this.minIntervalByUri));
			if (this.detachedOutboxCapacity != Integer.MAX_VALUE) {
				dispatcher.setDetachedOutboxCapacity(this.detachedOutboxCapacity);
			}
			ResourceRegistry registry = this.resources;
			if (registry != null) {
				dispatcher.setResyncTargets(new ResyncTargets(registry, this.accessPolicy));
				dispatcher.setListedResources(registry::isListedInstance);
			}
			if (this.observer != null) {
				dispatcher.setObserver(this.observer);
			}
			return new NotificationEngine(dispatcher);
		}

	}

}
