package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Where the nodes of a cluster keep webhook subscriptions together (the cluster's Redis):
 * each subscription as an opaque record with its principal and its delivery state (how
 * far it was delivered), endpoint verifications, and the lease that lets exactly one node
 * deliver each subscription. Records expire at their subscription's expiry in the store
 * too. Without a store, each node keeps its own subscriptions in memory.
 *
 * @since 0.1.0
 */
public interface McpWebhookStore {

	/**
	 * A subscription, unless it was removed or has expired.
	 * @param id its id
	 * @return it, or {@code null}
	 */
	@Nullable Stored get(String id);

	/**
	 * Create or replace a subscription's record, keeping its delivery state.
	 * @param id its id
	 * @param principalName the name of its principal
	 * @param principal its principal, or {@code null} to keep the one stored
	 * @param data its record
	 * @param expiresAt when it expires, or {@code null} for never
	 */
	void put(String id, String principalName, @Nullable Principal principal, String data, @Nullable Instant expiresAt);

	/**
	 * Remove a subscription, its delivery state and its lease.
	 * @param id its id
	 * @return whether there was one
	 */
	boolean remove(String id);

	/**
	 * Every subscription that has not expired.
	 * @param now the time
	 * @return the subscriptions
	 */
	List<Stored> all(Instant now);

	/**
	 * Every subscription that has not expired and whose lease no node holds: those a node
	 * takes over.
	 * @param now the time
	 * @return the subscriptions
	 */
	List<Stored> orphans(Instant now);

	/**
	 * Forget the subscriptions that have expired.
	 * @param now the time
	 * @return their ids
	 */
	List<String> removeExpired(Instant now);

	/**
	 * How many subscriptions a principal has that have not expired.
	 * @param principalName the principal's name
	 * @param now the time
	 * @return the count
	 */
	int countOf(String principalName, Instant now);

	/**
	 * Whether an endpoint was verified for a principal's deliveries and still is.
	 * @param principalName the principal's name
	 * @param url the callback URL
	 * @param now the time
	 * @return whether it is verified
	 */
	boolean isVerified(String principalName, String url, Instant now);

	/**
	 * Record a verification.
	 * @param principalName the principal's name
	 * @param url the callback URL
	 * @param until until when it holds
	 */
	void verified(String principalName, String url, Instant until);

	/**
	 * Record how far a subscription was delivered, while it exists and no other node
	 * holds its lease.
	 * @param id its id
	 * @param state its delivery state
	 */
	void delivered(String id, String state);

	/**
	 * Take or keep the lease of a subscription's delivery: taken if no node holds it,
	 * renewed if this node does.
	 * @param id the subscription's id
	 * @param duration how long the lease holds unless renewed
	 * @return whether this node holds it
	 */
	boolean lease(String id, Duration duration);

	/**
	 * Give up a lease this node holds, so that another node takes over at once.
	 * @param id the subscription's id
	 */
	void release(String id);

	/**
	 * A subscription as stored.
	 *
	 * @param id its id
	 * @param data its record
	 * @param principal its principal, or {@code null} if none was stored
	 * @param state its delivery state, or {@code null} if none was recorded
	 */
	record Stored(String id, String data, @Nullable Principal principal, @Nullable String state) {
	}

}
