package io.github.mcpsubscriptions.notification;

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * Where the dispatcher takes changes from. The default forwards this node's
 * {@link ResourceChangedEvent}s; a clustered feed also shares them with other nodes, each
 * of which delivers to its own streams.
 *
 * @since 0.1.0
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
	 * Publish that the list of resources changed (a {@link ResourceListChangedEvent}). On
	 * one node this is just telling this node's subscribers; a clustered feed tells every
	 * node's, through {@link #subscribeResourceListChanged(Runnable)}.
	 * @param thisNode tells this node's subscribers
	 */
	default void publishResourceListChanged(Runnable thisNode) {
		thisNode.run();
	}

	/**
	 * Be told when another node, or this one through a clustered feed, published that the
	 * list of resources changed. A feed of one node never calls it.
	 * @param listener called for each such change; it must return quickly
	 */
	default void subscribeResourceListChanged(Runnable listener) {
	}

	/**
	 * The name of this node in a cluster, for reports.
	 * @return the name, or {@code null} on a single node
	 */
	default @Nullable String getNodeName() {
		return null;
	}

}
