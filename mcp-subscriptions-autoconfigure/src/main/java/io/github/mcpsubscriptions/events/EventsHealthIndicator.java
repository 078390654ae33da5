package io.github.mcpsubscriptions.events;

import java.time.Instant;
import java.util.Collection;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code mcpEvents} health: down while webhook deliveries waiting on this node exceed
 * {@code mcp.events.webhooks.health-max-backlog} (the node does not keep up, events reach
 * their endpoints late), or while the event log cannot be read (a cluster's Redis is
 * unreachable: polls and deliveries fail). Never down because receivers fail: a failing
 * endpoint is its owner's problem, retried, abandoned and suspended per subscription, and
 * shows in the details ({@code suspendedWebhooks}) and the meters, not as an unhealthy
 * node that an orchestrator would restart. {@code OUT_OF_SERVICE} is not reported.
 */
final class EventsHealthIndicator extends AbstractHealthIndicator {

	private final WebhookDelivery delivery;

	private final WebhookSubscriptionStore store;

	private final EventLog log;

	private final EventStats stats;

	private final int maxBacklog;

	EventsHealthIndicator(WebhookDelivery delivery, WebhookSubscriptionStore store, EventLog log, EventStats stats,
			int maxBacklog) {
		super("MCP events health check failed");
		this.delivery = delivery;
		this.store = store;
		this.log = log;
		this.stats = stats;
		this.maxBacklog = maxBacklog;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		int backlog = this.delivery.getBacklog();
		Instant now = this.log.now();
		// Reads the log's head: throws (and so reports down) where the log is
		// unreachable.
		long head = this.log.after(Long.MAX_VALUE).head();
		Collection<WebhookSubscription> webhooks = this.store.all(now);
		long suspended = webhooks.stream().filter((subscription) -> !subscription.active()).count();
		((backlog > this.maxBacklog) ? builder.down() : builder.up()).withDetail("webhookBacklog", backlog)
			.withDetail("maxWebhookBacklog", this.maxBacklog)
			.withDetail("webhookSubscriptions", webhooks.size())
			.withDetail("suspendedWebhooks", suspended)
			.withDetail("deliveringWebhooks", this.delivery.getDelivering())
			.withDetail("pushStreams", this.stats.getOpenStreams())
			.withDetail("logPosition", head);
	}

}
