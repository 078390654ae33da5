package io.github.mcpsubscriptions.capture;

import java.util.List;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.subscription.CoverageRules;

/**
 * The sink of a single node: captured changes go to the change feed, a resync to the
 * subscriptions that may cover a captured table's resources.
 *
 * @since 0.1.0
 */
public class FeedCaptureSink implements CaptureSink {

	private final ResourceChangeFeed feed;

	private final NotificationEngine dispatcher;

	public FeedCaptureSink(ResourceChangeFeed feed, NotificationEngine dispatcher) {
		this.feed = feed;
		this.dispatcher = dispatcher;
	}

	@Override
	public void publish(String source, List<Positioned> changes) {
		for (Positioned change : changes) {
			this.feed.publish(change.change());
		}
	}

	@Override
	public void resync(List<CapturedTable> tables) {
		List<String> templates = tables.stream().map((table) -> table.template().getTemplate()).toList();
		this.dispatcher.resync((subscribedUri) -> CoverageRules.mayOverlap(subscribedUri, templates));
	}

}
