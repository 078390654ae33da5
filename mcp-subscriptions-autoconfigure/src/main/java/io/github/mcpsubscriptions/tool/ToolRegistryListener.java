package io.github.mcpsubscriptions.tool;

/**
 * Told when tools are added or removed.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ToolRegistryListener {

	/**
	 * The list of tools changed.
	 */
	void toolListChanged();

}
