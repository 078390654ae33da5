package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Where webhook subscriptions and their endpoints' verification are kept: in memory on
 * one node, or in a {@link McpWebhookStore} the nodes of a cluster share, which also
 * keeps how far each subscription was delivered and elects the one node that delivers it
 * ({@link #delivers}).
 */
interface WebhookSubscriptionStore {

	/**
	 * The subscription with an id, if it exists and has not expired.
	 * @param id the derived id
	 * @param now the time
	 * @return it, or {@code null}
	 */
	@Nullable WebhookSubscription get(String id, Instant now);

	/**
	 * Create or replace a subscription (an upsert on its id).
	 * @param subscription the subscription
	 */
	void put(WebhookSubscription subscription);

	/**
	 * Remove a subscription.
	 * @param id its id
	 * @return whether there was one
	 */
	boolean remove(String id);

	/**
	 * Every subscription that has not expired.
	 * @param now the time
	 * @return the subscriptions
	 */
	Collection<WebhookSubscription> all(Instant now);

	/**
	 * Remove the subscriptions that have expired.
	 * @param now the time
	 * @return the ids of those removed
	 */
	List<String> removeExpired(Instant now);

	/**
	 * How many subscriptions a principal has.
	 * @param principal the principal's name
	 * @param now the time
	 * @return the count
	 */
	int countOf(String principal, Instant now);

	/**
	 * Whether an endpoint's intent to receive a principal's deliveries was verified and
	 * still is.
	 * @param principal the principal's name
	 * @param url the callback URL
	 * @param now the time
	 * @return whether it is verified
	 */
	boolean isVerified(String principal, String url, Instant now);

	/**
	 * Record a verification, for a principal's subscriptions to a URL only.
	 * @param principal the principal's name
	 * @param url the callback URL
	 * @param until until when it holds
	 */
	void verified(String principal, String url, Instant until);

	/**
	 * Whether this node delivers a subscription: always on one node; in a cluster, the
	 * one node holding its lease.
	 * @param id the subscription's id
	 * @return whether this node delivers it
	 */
	default boolean delivers(String id) {
		return true;
	}

	/**
	 * Whether this node's lease on a subscription, as last taken or renewed, still holds:
	 * judged locally, before each POST.
	 * @param id the subscription's id
	 * @return whether it holds
	 */
	default boolean stillDelivers(String id) {
		return true;
	}

	/**
	 * Whether other nodes share the subscriptions: delivery then takes over those whose
	 * node is gone.
	 * @return whether they are shared
	 */
	default boolean isShared() {
		return false;
	}

	/**
	 * Create or replace a subscription with the principal its delivery is judged for.
	 * @param subscription the subscription
	 * @param principal its principal
	 */
	default void put(WebhookSubscription subscription, Principal principal) {
		put(subscription);
	}

	/**
	 * A subscription as a node that takes over its delivery finds it.
	 * @param id its id
	 * @param now the time
	 * @return it, or {@code null} if it is gone or the store is not shared
	 */
	default @Nullable Handover handover(String id, Instant now) {
		return null;
	}

	/**
	 * The subscriptions whose delivery no node holds, as a node that takes them over
	 * finds them.
	 * @param now the time
	 * @return them, none if the store is not shared
	 */
	default List<Handover> orphans(Instant now) {
		return List.of();
	}

	/**
	 * Record how far a subscription was delivered, for the node that delivers it next.
	 * @param id its id
	 * @param state its delivery state
	 */
	default void delivered(String id, DeliveryState state) {
	}

	/**
	 * Give up delivering a subscription, so that another node takes over at once.
	 * @param id its id
	 */
	default void release(String id) {
	}

	/**
	 * A subscription and what delivery needs to resume it.
	 *
	 * @param subscription the subscription
	 * @param principal its principal, or {@code null} if none was stored
	 * @param state how far it was delivered, or {@code null} if no node recorded it
	 */
	record Handover(WebhookSubscription subscription, @Nullable Principal principal, @Nullable DeliveryState state) {
	}

	/**
	 * How far a subscription was delivered, and how delivery fared.
	 *
	 * @param cursor the watermark: every event up to it was delivered, abandoned or
	 * skipped
	 * @param lastDeliveryAt when an endpoint last accepted a delivery
	 * @param lastError the category of the last failure, cleared by a success
	 * @param failedSince when the failures since the last success began
	 */
	record DeliveryState(String cursor, @Nullable String lastDeliveryAt, @Nullable String lastError,
			@Nullable String failedSince) {
	}

}
