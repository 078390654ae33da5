package io.github.mcpsubscriptions.server;

/**
 * Bounds on subscriptions.
 *
 * @param maxPerSubscriber the most subscriptions one session or listen stream holds
 * @param maxTotal the most subscriptions the server holds
 */
public record SubscriptionLimits(int maxPerSubscriber, int maxTotal) {

	public SubscriptionLimits {
		if (maxPerSubscriber < 1 || maxTotal < 1) {
			throw new IllegalArgumentException("Subscription limits must be at least 1");
		}
	}

}
