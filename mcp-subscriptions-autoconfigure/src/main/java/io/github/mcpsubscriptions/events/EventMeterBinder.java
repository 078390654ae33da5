package io.github.mcpsubscriptions.events;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of the Events extension beside webhook delivery's
 * ({@link WebhookMeterBinder}): {@code mcp.events.published} by type,
 * {@code mcp.events.delivered} by mode, {@code mcp.events.subscriptions{mode=push}} and
 * {@code mcp.events.push.lag}.
 */
final class EventMeterBinder implements MeterBinder {

	private final EventStats stats;

	private final WebhookStats webhooks;

	private final EventTypeRegistry types;

	EventMeterBinder(EventStats stats, WebhookStats webhooks, EventTypeRegistry types) {
		this.stats = stats;
		this.webhooks = webhooks;
		this.types = types;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		for (EventType type : this.types.all()) {
			// Registered for every declared type, so that a rate shows from zero.
			this.stats.counter(type.name());
			FunctionCounter.builder("mcp.events.published", this.stats, (s) -> s.getRecorded(type.name()))
				.tag("type", type.name())
				.description("Events recorded in the event log, by type (on the node that recorded them)")
				.register(registry);
		}
		for (String mode : new String[] { EventStats.POLL, EventStats.PUSH }) {
			FunctionCounter.builder("mcp.events.delivered", this.stats, (s) -> s.getDelivered(mode))
				.tag("mode", mode)
				.description("Event occurrences handed to clients, by delivery mode")
				.register(registry);
		}
		FunctionCounter.builder("mcp.events.delivered", this.webhooks, WebhookStats::getDelivered)
			.tag("mode", EventStats.WEBHOOK)
			.description("Event occurrences handed to clients, by delivery mode")
			.register(registry);
		Gauge.builder("mcp.events.subscriptions", this.stats, EventStats::getOpenStreams)
			.tag("mode", EventStats.PUSH)
			.description("Event subscriptions held by the server, by delivery mode")
			.register(registry);
		Timer lag = Timer.builder("mcp.events.push.lag")
			.description("Time from an event's recording to its write on a push stream")
			.register(registry);
		this.stats.observePushLag(lag::record);
	}

}
