package io.github.mcpsubscriptions.metrics;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.ToDoubleFunction;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.NotificationStats;
import io.github.mcpsubscriptions.server.LimitStats;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.server.ListenStats;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.subscription.CoverageKind;
import io.github.mcpsubscriptions.subscription.McpSubscriptionAuditEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationListener;

/**
 * Micrometer meters for sessions, streams, subscriptions and notifications. Tags are
 * low-cardinality by design: never a session id or a URI.
 *
 * @since 0.1.0
 */
public class McpMetrics implements MeterBinder, ApplicationListener<McpSubscriptionAuditEvent> {

	private final McpSessionManager sessions;

	private final NotificationEngine dispatcher;

	private final ConcurrentMap<McpSubscriptionAuditEvent.Reason, Counter> rejections = new ConcurrentHashMap<>();

	private final @Nullable ListenManager listens;

	private final @Nullable LimitStats limits;

	private volatile @Nullable MeterRegistry registry;

	public McpMetrics(McpSessionManager sessions, NotificationEngine dispatcher, @Nullable ListenManager listens) {
		this(sessions, dispatcher, listens, null);
	}

	/**
	 * Create the meters.
	 * @param sessions the sessions
	 * @param dispatcher the notification dispatcher
	 * @param listens the listen streams, or {@code null}
	 * @param limits the refusals by capacity limit, or {@code null}
	 */
	public McpMetrics(McpSessionManager sessions, NotificationEngine dispatcher, @Nullable ListenManager listens,
			@Nullable LimitStats limits) {
		this.sessions = sessions;
		this.dispatcher = dispatcher;
		this.listens = listens;
		this.limits = limits;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
		Gauge.builder("mcp.sessions.active", this.sessions, McpSessionManager::getSessionCount)
			.description("Sessions that exist (2025-era protocol)")
			.register(registry);
		Gauge.builder("mcp.streams.open", this.sessions, McpSessionManager::getOpenStreamCount)
			.tag("era", "2025")
			.description("Open server-to-client streams on this node")
			.register(registry);
		if (this.listens != null) {
			Gauge.builder("mcp.streams.open", this.listens, ListenManager::getOpenStreamCount)
				.tag("era", "2026")
				.description("Open server-to-client streams on this node")
				.register(registry);
			ListenStats listenStats = this.listens.getStats();
			for (ListenStats.Refusal reason : ListenStats.Refusal.values()) {
				FunctionCounter.builder("mcp.listen.refused", listenStats, (s) -> s.getRefused(reason))
					.tag("reason", reason.tag())
					.description("Listen requests refused, by reason")
					.register(registry);
			}
			for (ListenStats.End reason : ListenStats.End.values()) {
				FunctionCounter.builder("mcp.listen.ended", listenStats, (s) -> s.getEnded(reason))
					.tag("reason", reason.tag())
					.description("Listen streams that ended, by reason")
					.register(registry);
			}
		}
		if (this.limits != null) {
			for (String limit : LimitStats.LIMITS) {
				// Tagged by the limit's property, never by the principal or client
				// refused.
				FunctionCounter.builder("mcp.limits.refused", this.limits, (s) -> s.getRefused(limit))
					.tag("limit", limit)
					.description("Requests refused by a capacity limit, by the property that sets it")
					.register(registry);
			}
		}
		for (CoverageKind kind : CoverageKind.values()) {
			Gauge
				.builder("mcp.subscriptions.active", this.dispatcher,
						(dispatcher) -> dispatcher.getIndex().countByKind().get(kind))
				.tag("kind", kind.name().toLowerCase(Locale.ROOT))
				.description("Active subscriptions by coverage kind")
				.register(registry);
		}
		Gauge.builder("mcp.dispatch.backlog", this.dispatcher, NotificationEngine::getBacklog)
			.description("Changes waiting for the dispatcher")
			.register(registry);
		NotificationStats stats = this.dispatcher.getStats();
		counter(registry, "mcp.events.received", stats, NotificationStats::getEventsReceived,
				"Resource changes received from the change feed");
		counter(registry, "mcp.notifications.sent", stats, NotificationStats::getSent,
				"Notifications written to streams");
		counter(registry, "mcp.notifications.coalesced", stats, NotificationStats::getCoalesced,
				"Notifications merged into an identical one still waiting");
		counter(registry, "mcp.notifications.delayed", stats, NotificationStats::getDelayed,
				"Notifications held back by a rate limit");
		counter(registry, "mcp.notifications.gathered", stats, NotificationStats::getGathered,
				"Lone notifications that waited for others to share their write while delivery was saturated");
		counter(registry, "mcp.notifications.held-back", stats, NotificationStats::getHeldBack,
				"Turns of a lane of streams held back until its turn interval had passed, while delivery was saturated");
		FunctionCounter.builder("mcp.notifications.dropped", stats, (s) -> s.getFiltered())
			.tag("reason", "filtered")
			.description("Notifications not sent, by reason")
			.register(registry);
		FunctionCounter.builder("mcp.notifications.dropped", stats, (s) -> s.getDenied())
			.tag("reason", "access-denied")
			.description("Notifications not sent, by reason")
			.register(registry);
		FunctionCounter.builder("mcp.notifications.dropped", stats, (s) -> s.getDroppedOnOverflow())
			.tag("reason", "overflow")
			.description("Notifications not sent, by reason")
			.register(registry);
		counter(registry, "mcp.outbox.overflows", stats, NotificationStats::getOverflows,
				"Slow consumers whose outbox overflowed and whose stream was closed");
		counter(registry, "mcp.notifications.resyncs", stats, NotificationStats::getResyncsQueued,
				"Resync notifications queued after a gap");
		counter(registry, "mcp.replays.served", stats, NotificationStats::getReplays,
				"Reconnections with Last-Event-ID served from the replay log");
		counter(registry, "mcp.streams.stalled", stats, NotificationStats::getStalls,
				"Streams given up because a write blocked longer than the write timeout");
		Timer latency = Timer.builder("mcp.notifications.latency")
			.description("Time from a change's publication to its notification's write")
			.publishPercentileHistogram()
			.register(registry);
		stats.setLatencyListener((duration) -> latency.record(duration.isNegative() ? Duration.ZERO : duration));
		for (McpSubscriptionAuditEvent.Reason reason : McpSubscriptionAuditEvent.Reason.values()) {
			rejections(registry, reason);
		}
	}

	private static <T> void counter(MeterRegistry registry, String name, T state, ToDoubleFunction<T> count,
			String description) {
		FunctionCounter.builder(name, state, count).description(description).register(registry);
	}

	private Counter rejections(MeterRegistry registry, McpSubscriptionAuditEvent.Reason reason) {
		return this.rejections.computeIfAbsent(reason,
				(key) -> Counter.builder("mcp.subscriptions.rejected")
					.tag("reason", key.name().toLowerCase(Locale.ROOT).replace('_', '-'))
					.description("Subscriptions refused, by reason")
					.register(registry));
	}

	@Override
	public void onApplicationEvent(McpSubscriptionAuditEvent event) {
		MeterRegistry current = this.registry;
		if (current != null && event.getReason() != null) {
			rejections(current, event.getReason()).increment();
		}
	}

}
