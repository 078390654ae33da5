package io.github.mcpsubscriptions.events;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Where webhook subscriptions and their endpoints' verification are kept: in memory on
 * one node; the seam for a shared store (a cluster's Redis), which would also elect the
 * one node that delivers each subscription ({@link #delivers}).
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
	 * @return those removed
	 */
	List<WebhookSubscription> removeExpired(Instant now);

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

}
