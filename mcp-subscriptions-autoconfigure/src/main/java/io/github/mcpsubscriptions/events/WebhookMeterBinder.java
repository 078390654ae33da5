package io.github.mcpsubscriptions.events;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of webhook delivery ({@code mcp.events.webhooks.*} and
 * {@code mcp.events.subscriptions}): never tagged by subscription, principal or URL.
 */
final class WebhookMeterBinder implements MeterBinder {

	private final WebhookStats stats;

	private final WebhookDelivery delivery;

	private final WebhookSubscriptionStore store;

	private final EventLog log;

	WebhookMeterBinder(WebhookStats stats, WebhookDelivery delivery, WebhookSubscriptionStore store, EventLog log) {
		this.stats = stats;
		this.delivery = delivery;
		this.store = store;
		this.log = log;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder("mcp.events.webhooks.attempts", this.stats, WebhookStats::getAttempts)
			.description("Webhook POSTs attempted (deliveries and envelopes, retries included)")
			.register(registry);
		FunctionCounter.builder("mcp.events.webhooks.delivered", this.stats, WebhookStats::getDelivered)
			.description("Webhook deliveries the endpoint accepted (2xx)")
			.register(registry);
		for (String category : WebhookStats.CATEGORIES) {
			FunctionCounter.builder("mcp.events.webhooks.failures", this.stats, (s) -> s.getFailures(category))
				.tag("reason", category)
				.description("Webhook POSTs that failed, by the draft's category")
				.register(registry);
		}
		FunctionCounter.builder("mcp.events.webhooks.retries", this.stats, WebhookStats::getRetries)
			.description("Webhook deliveries scheduled again after a failed attempt")
			.register(registry);
		FunctionCounter.builder("mcp.events.webhooks.abandoned", this.stats, WebhookStats::getAbandoned)
			.description("Webhook deliveries given up (attempts or retry window exhausted, 410, 413)")
			.register(registry);
		FunctionCounter.builder("mcp.events.webhooks.suspended", this.stats, WebhookStats::getSuspensions)
			.description("Webhook subscriptions suspended after deliveries abandoned in a row")
			.register(registry);
		FunctionCounter
			.builder("mcp.events.webhooks.verification.failures", this.stats, WebhookStats::getVerificationFailures)
			.description("Endpoint verifications that failed (no echo, unreachable)")
			.register(registry);
		Gauge.builder("mcp.events.webhooks.backlog", this.delivery, WebhookDelivery::getBacklog)
			.description("Webhook deliveries waiting on this node")
			.register(registry);
		Gauge.builder("mcp.events.subscriptions", this.store, (s) -> s.all(this.log.now()).size())
			.tag("mode", "webhook")
			.description("Event subscriptions held by the server, by delivery mode")
			.register(registry);
		Timer lag = Timer.builder("mcp.events.webhooks.lag")
			.description("Time from an event's recording to the endpoint's acceptance of its webhook")
			.register(registry);
		this.stats.observeLag(lag::record);
	}

}
