package io.github.mcpsubscriptions.prompt;

/**
 * Told when prompts are added or removed.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface PromptRegistryListener {

	/**
	 * The list of prompts changed.
	 */
	void promptListChanged();

}
