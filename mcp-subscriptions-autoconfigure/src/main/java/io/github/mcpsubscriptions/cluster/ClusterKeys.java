package io.github.mcpsubscriptions.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The names of the Redis keys the cluster writes, all under one prefix. Keys that one
 * operation touches together share a hash tag, so that they stay in one slot of a Redis
 * Cluster.
 *
 * @param prefix the prefix of every key
 * @since 0.1.0
 */
public record ClusterKeys(String prefix) {

	/**
	 * The change log.
	 * @return the key
	 */
	public String log() {
		return this.prefix + "{log}";
	}

	/**
	 * The log of MCP events (the Events extension), a stream whose entry ids are the
	 * events' positions.
	 * @return the key
	 */
	public String events() {
		return this.prefix + "{events}";
	}

	/**
	 * The bookkeeping of the event log (its epoch and its last position), a hash in the
	 * slot of {@link #events()}.
	 * @return the key
	 */
	public String eventsMeta() {
		return this.prefix + "{events}:meta";
	}

	/**
	 * A session's durable state, a hash.
	 * @param sessionId the session id
	 * @return the key
	 */
	public String session(String sessionId) {
		return this.prefix + "session:{" + sessionId + "}";
	}

	/**
	 * A session's subscriptions, a set in the same slot as the session.
	 * @param sessionId the session id
	 * @return the key
	 */
	public String subscriptions(String sessionId) {
		return this.prefix + "subscriptions:{" + sessionId + "}";
	}

	/**
	 * The sessions by expiry time, a sorted set, for the cluster-wide session count.
	 * @return the key
	 */
	public String sessions() {
		return this.prefix + "{sessions}";
	}

	/**
	 * The number of subscriptions each session holds, a hash in the slot of
	 * {@link #sessions()}, so that a session's count goes with it when it ends or
	 * expires.
	 * @return the key
	 */
	public String subscriptionCounts() {
		return this.prefix + "{sessions}:subscription-counts";
	}

	/**
	 * The number of subscriptions the sessions hold together, for the cluster-wide
	 * {@code mcp.subscriptions.max-total}; in the slot of {@link #sessions()}.
	 * @return the key
	 */
	public String subscriptionTotal() {
		return this.prefix + "{sessions}:subscription-total";
	}

	/**
	 * The sessions of one principal by expiry time, a sorted set, for the cluster-wide
	 * limits per principal. The name is encoded, so that whatever it holds the key is one
	 * well-formed key.
	 * @param principalName the principal's name
	 * @return the key
	 */
	public String principalSessions(String principalName) {
		return this.prefix + "principal:{"
				+ Base64.getUrlEncoder().withoutPadding().encodeToString(principalName.getBytes(StandardCharsets.UTF_8))
				+ "}";
	}

	/**
	 * The webhook subscriptions of the Events extension by expiry time, a sorted set.
	 * Every key of webhooks shares its slot, so that each script touches one slot.
	 * @return the key
	 */
	public String webhooks() {
		return this.prefix + "{webhooks}";
	}

	/**
	 * A webhook subscription (its record, principal and delivery state), a hash.
	 * @param id the subscription's id
	 * @return the key
	 */
	public String webhook(String id) {
		return this.prefix + "{webhooks}:subscription:" + id;
	}

	/**
	 * The lease of the one node that delivers a webhook subscription.
	 * @param id the subscription's id
	 * @return the key
	 */
	public String webhookLease(String id) {
		return this.prefix + "{webhooks}:lease:" + id;
	}

	/**
	 * The webhook subscriptions of one principal by expiry time, a sorted set.
	 * @param principalName the principal's name
	 * @return the key
	 */
	public String principalWebhooks(String principalName) {
		return this.prefix + "{webhooks}:principal:" + encode(principalName);
	}

	/**
	 * The verification of a callback URL for one principal's deliveries.
	 * @param principalName the principal's name
	 * @param url the callback URL
	 * @return the key
	 */
	public String webhookVerification(String principalName, String url) {
		return this.prefix + "{webhooks}:verified:" + encode(principalName) + ":" + encode(url);
	}

	private static String encode(String text) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}

}
