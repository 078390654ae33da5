package io.github.mcpsubscriptions.resource;

/**
 * Told when resources or templates are added or removed.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ResourceRegistryListener {

	/**
	 * The list of resources changed.
	 */
	void resourceListChanged();

}
