package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsubscriptions.events.EventsWire.Cursor;
import io.github.mcpsubscriptions.events.WebhookSubscriptionStore.DeliveryState;
import io.github.mcpsubscriptions.events.WebhookSubscriptionStore.Handover;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Webhook delivery across the nodes of a shared store: each node records how far it
 * delivered each subscription it holds the lease of, and takes over, from that record,
 * the subscriptions whose node stopped, died or lost its lease. At least once: a node
 * that dies after a POST was accepted and before its record was written has it posted
 * again.
 */
final class WebhookHandovers {

	private static final Log logger = LogFactory.getLog(WebhookHandovers.class);

	private final EventTypeRegistry types;

	private final EventLog log;

	private final JsonRpcCodec codec;

	private final WebhookSubscriptionStore store;

	/**
	 * Subscriptions of a shared store found without a delivery state: their node records
	 * one as it activates them, so only one left without for a lease's time is taken
	 * over.
	 */
	private final Map<String, Instant> unstarted = new ConcurrentHashMap<>();

	private Duration takeOverInterval = Duration.ofSeconds(1);

	private Duration takeOverGrace = Duration.ofSeconds(10);

	private volatile @Nullable Instant lastTakeOver;

	WebhookHandovers(EventTypeRegistry types, EventLog log, JsonRpcCodec codec, WebhookSubscriptionStore store) {
		this.types = types;
		this.log = log;
		this.codec = codec;
		this.store = store;
	}

	/**
	 * How often to look for subscriptions no node delivers, and how long one without a
	 * delivery state waits before it is taken over.
	 * @param interval how often
	 * @param grace how long
	 */
	void configure(Duration interval, Duration grace) {
		this.takeOverInterval = interval;
		this.takeOverGrace = grace;
	}

	/**
	 * A lane for a subscription another node (or this one before a restart) delivered.
	 */
	WebhookLane adopt(WebhookSubscription subscription, Principal principal, @Nullable Object arguments,
			@Nullable DeliveryState state) {
		long position = this.log.after(Long.MAX_VALUE).head();
		if (state != null) {
			try {
				Cursor cursor = Cursor.decode(state.cursor());
				// Of another epoch: behind what is retained, which the first scan sends a
				// gap for.
				position = cursor.epoch().equals(this.log.epoch()) ? cursor.position() : -1;
			}
			catch (RuntimeException ex) {
				logger.warn("The delivery state of " + subscription + " names no cursor; delivery resumes from now");
			}
		}
		WebhookLane lane = new WebhookLane(subscription, principal, arguments, position, null);
		lane.persisted = position;
		if (state != null) {
			lane.lastDeliveryAt = instant(state.lastDeliveryAt());
			lane.lastError = state.lastError();
			lane.failedSince = instant(state.failedSince());
		}
		return lane;
	}

	private static @Nullable Instant instant(@Nullable String text) {
		try {
			return (text != null) ? Instant.parse(text) : null;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Take over the subscriptions of a shared store that no node delivers: their node
	 * stopped, died or lost its lease.
	 */
	void takeOverOrphans(Instant now, Map<String, WebhookLane> lanes) {
		Instant last = this.lastTakeOver;
		if (last != null && Duration.between(last, now).compareTo(this.takeOverInterval) < 0) {
			return;
		}
		this.lastTakeOver = now;
		Set<String> orphans = new HashSet<>();
		for (Handover handover : this.store.orphans(now)) {
			WebhookSubscription subscription = handover.subscription();
			String id = subscription.id();
			orphans.add(id);
			if (lanes.containsKey(id) || !subscription.active()) {
				continue;
			}
			EventType type = this.types.get(subscription.name());
			if (type == null) {
				// A type this node does not declare (a rolling upgrade): left to a node
				// that does.
				continue;
			}
			if (handover.state() == null) {
				Instant seen = this.unstarted.putIfAbsent(id, now);
				if (seen == null || Duration.between(seen, now).compareTo(this.takeOverGrace) < 0) {
					continue;
				}
			}
			this.unstarted.remove(id);
			Object arguments;
			try {
				arguments = EventMatching.bind(this.codec, type, subscription.arguments());
			}
			catch (RuntimeException ex) {
				logger.warn("The arguments of " + subscription + " no longer bind; it is not delivered here", ex);
				continue;
			}
			if (!this.store.delivers(id)) {
				continue;
			}
			Principal principal = (handover.principal() != null) ? handover.principal() : subscription::principal;
			lanes.putIfAbsent(id, adopt(subscription, principal, arguments, handover.state()));
		}
		this.unstarted.keySet().retainAll(orphans);
	}

	/**
	 * Record a lane's watermark in a shared store, once it moved: where another node
	 * resumes. Never ahead of what was delivered, abandoned or skipped.
	 */
	void persist(WebhookLane lane) {
		if (!this.store.isShared()) {
			return;
		}
		long mark;
		DeliveryState state;
		synchronized (lane) {
			mark = lane.watermark();
			if (lane.closed || mark <= lane.persisted) {
				return;
			}
			state = new DeliveryState(new Cursor(this.log.epoch(), mark).encode(),
					(lane.lastDeliveryAt != null) ? lane.lastDeliveryAt.toString() : null, lane.lastError,
					(lane.failedSince != null) ? lane.failedSince.toString() : null);
		}
		synchronized (lane.persisting) {
			if (mark <= lane.persisted) {
				return;
			}
			try {
				this.store.delivered(lane.subscription.id(), state);
				lane.persisted = mark;
			}
			catch (RuntimeException ex) {
				// Recorded with a later delivery: at worst a takeover delivers again.
				logger.debug("The delivery state of " + lane.subscription + " could not be recorded", ex);
			}
		}
	}

}
