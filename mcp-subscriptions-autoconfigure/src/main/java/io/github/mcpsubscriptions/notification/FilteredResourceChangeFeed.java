package io.github.mcpsubscriptions.notification;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The change feed as the application's own publishers see it: a change goes on only if
 * every {@link PublishedChangeFilter} accepts it.
 *
 * @since 0.1.0
 */
public final class FilteredResourceChangeFeed implements ResourceChangeFeed {

	private final ResourceChangeFeed feed;

	private final Supplier<List<PublishedChangeFilter>> filters;

	/**
	 * Create a filtered view of a feed.
	 * @param feed the feed
	 * @param filters the filters, looked up when needed (a filter may depend on beans
	 * that are created after the publishers)
	 */
	public FilteredResourceChangeFeed(ResourceChangeFeed feed, Supplier<List<PublishedChangeFilter>> filters) {
		this.feed = feed;
		this.filters = filters;
	}

	@Override
	public void publish(ResourceChange change) {
		for (PublishedChangeFilter filter : this.filters.get()) {
			if (!filter.accept(change)) {
				return;
			}
		}
		this.feed.publish(change);
	}

	@Override
	public void subscribe(Consumer<ResourceChange> consumer) {
		this.feed.subscribe(consumer);
	}

	@Override
	public void publishResourceListChanged(Runnable thisNode) {
		this.feed.publishResourceListChanged(thisNode);
	}

	@Override
	public void subscribeResourceListChanged(Runnable listener) {
		this.feed.subscribeResourceListChanged(listener);
	}

	@Override
	public @Nullable String getNodeName() {
		return this.feed.getNodeName();
	}

}
