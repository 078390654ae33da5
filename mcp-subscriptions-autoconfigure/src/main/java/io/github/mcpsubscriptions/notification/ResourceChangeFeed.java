package io.github.mcpsubscriptions.notification;

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * Where the dispatcher takes changes from. The default forwards this node's
 * {@link ResourceChangedEvent}s; a clustered feed also shares them with other nodes, each
 * of which delivers to its own streams.
 */
public interface ResourceChangeFeed {

	/**
	 * Publish a change made on this node.
	 * @param change the change
	 */
	void publish(ResourceChange change);

	/**
	 * Receive every change: this node's and, for a clustered feed, other nodes'.
	 * @param consumer called for each change; it must return quickly
	 */
	void subscribe(Consumer<ResourceChange> consumer);

	/**
	 * The name of this node in a cluster, for reports.
	 * @return the name, or {@code null} on a single node
	 */
	default @Nullable String getNodeName() {
		return null;
	}

}
