package io.github.mcpsubscriptions.server;

/**
 * Bounds on subscriptions.
 *
 * @param maxPerSubscriber the most subscriptions one session or listen stream holds
 * @param maxTotal the most subscriptions the server holds
 * @param maxPerPrincipal the most subscriptions of one authenticated principal over its
 * sessions and listen streams; zero for no limit
 * @since 0.1.0
 */
public record SubscriptionLimits(int maxPerSubscriber, int maxTotal, int maxPerPrincipal) {

	public SubscriptionLimits(int maxPerSubscriber, int maxTotal) {
		this(maxPerSubscriber, maxTotal, 0);
	}

	public SubscriptionLimits {
		if (maxPerSubscriber < 1 || maxTotal < 1) {
			throw new IllegalArgumentException("Subscription limits must be at least 1");
		}
		if (maxPerPrincipal < 0) {
			throw new IllegalArgumentException("The subscription limit per principal must be 0 (none) or more");
		}
	}

}
