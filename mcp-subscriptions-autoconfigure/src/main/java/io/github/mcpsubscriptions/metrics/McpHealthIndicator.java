package io.github.mcpsubscriptions.metrics;

import java.util.Set;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.Subscriber;
import io.github.mcpsubscriptions.server.ListenManager;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Up while the dispatcher keeps up with changes; reports how full the subscribers'
 * outboxes are. A backlog beyond the threshold is down: notifications are late. Reports
 * how close the node is to {@code mcp.listen.max-streams}, so that a cap about to refuse
 * listens shows before it does.
 *
 * @since 0.1.0
 */
public class McpHealthIndicator extends AbstractHealthIndicator {

	private static final double SATURATED = 0.8;

	private final NotificationEngine dispatcher;

	private final int maxBacklog;

	private final @Nullable ListenManager listens;

	public McpHealthIndicator(NotificationEngine dispatcher, int maxBacklog) {
		this(dispatcher, maxBacklog, null);
	}

	public McpHealthIndicator(NotificationEngine dispatcher, int maxBacklog, @Nullable ListenManager listens) {
		super("MCP subscriptions health check failed");
		this.dispatcher = dispatcher;
		this.maxBacklog = maxBacklog;
		this.listens = listens;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		int backlog = this.dispatcher.getBacklog();
		Set<Subscriber> subscribers = this.dispatcher.getSubscribers();
		int saturated = 0;
		double fullest = 0;
		for (Subscriber subscriber : subscribers) {
			double fill = (double) this.dispatcher.getWaiting(subscriber) / this.dispatcher.getCapacity(subscriber);
			fullest = Math.max(fullest, fill);
			if (fill >= SATURATED) {
				saturated++;
			}
		}
		((backlog > this.maxBacklog) ? builder.down() : builder.up()).withDetail("dispatchBacklog", backlog)
			.withDetail("maxDispatchBacklog", this.maxBacklog)
			.withDetail("subscribers", subscribers.size())
			.withDetail("saturatedOutboxes", saturated)
			.withDetail("fullestOutbox", Math.round(fullest * 100) + "%");
		if (this.listens != null) {
			int open = this.listens.getOpenStreamCount();
			int max = this.listens.getMaxStreams();
			builder.withDetail("listenStreams", open)
				.withDetail("maxListenStreams", max)
				.withDetail("listenStreamsUsed", ((max > 0) ? Math.round(100.0 * open / max) : 100) + "%");
		}
	}

}
