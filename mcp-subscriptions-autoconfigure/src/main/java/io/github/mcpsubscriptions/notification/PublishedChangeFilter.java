package io.github.mcpsubscriptions.notification;

/**
 * Decides whether a change the application published (a {@link ResourceChangedEvent}, a
 * mapped entity's change) goes to the change feed. A source that is the only one for some
 * resources, such as the database capture, declines theirs, so that one commit is
 * notified once.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface PublishedChangeFilter {

	/**
	 * Whether the change goes to the feed.
	 * @param change the change the application published
	 * @return {@code false} to drop it
	 */
	boolean accept(ResourceChange change);

}
