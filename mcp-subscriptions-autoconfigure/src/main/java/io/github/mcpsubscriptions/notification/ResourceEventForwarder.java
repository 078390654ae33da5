package io.github.mcpsubscriptions.notification;

import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Forwards the application's events to the change feed and the dispatcher. Events
 * published inside a transaction are forwarded after commit, and dropped on rollback;
 * others at once. Forwarding only queues: the publisher never waits for delivery.
 *
 * @since 0.1.0
 */
public class ResourceEventForwarder {

	private final ResourceChangeFeed feed;

	private final NotificationEngine dispatcher;

	public ResourceEventForwarder(ResourceChangeFeed feed, NotificationEngine dispatcher) {
		this.feed = feed;
		this.dispatcher = dispatcher;
	}

	@TransactionalEventListener(fallbackExecution = true)
	public void resourceChanged(ResourceChangedEvent event) {
		this.feed.publish(ResourceChange.of(event));
	}

	@TransactionalEventListener(fallbackExecution = true)
	public void resourceListChanged(ResourceListChangedEvent event) {
		this.feed.publishResourceListChanged(this.dispatcher::resourceListChanged);
	}

}
