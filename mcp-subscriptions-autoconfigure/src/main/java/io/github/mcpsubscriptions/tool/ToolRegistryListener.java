package io.github.mcpsubscriptions.tool;

/**
 * Told when tools are added or removed.
 */
@FunctionalInterface
public interface ToolRegistryListener {

	/**
	 * The list of tools changed.
	 */
	void toolListChanged();

}
