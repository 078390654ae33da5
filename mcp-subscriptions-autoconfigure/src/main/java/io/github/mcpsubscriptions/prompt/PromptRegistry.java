package io.github.mcpsubscriptions.prompt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The prompts the server offers, listed by name (so that pages stay stable). Adding or
 * removing one tells the {@link PromptRegistryListener}s, which send
 * {@code notifications/prompts/list_changed} to the clients that want it.
 * {@link McpPrompt} methods are registered here when the application starts; integrations
 * and applications register their own {@link Prompt}s at any time.
 *
 * @since 0.1.0
 */
public class PromptRegistry {

	private static final Log logger = LogFactory.getLog(PromptRegistry.class);

	private final List<PromptRegistryListener> listeners = new CopyOnWriteArrayList<>();

	private volatile Map<String, Prompt> prompts = Map.of();

	/**
	 * Add a prompt.
	 * @param prompt the prompt
	 * @throws IllegalStateException if one with the same name is registered already
	 */
	public void register(Prompt prompt) {
		String name = prompt.getDefinition().name();
		synchronized (this) {
			if (this.prompts.containsKey(name)) {
				throw new IllegalStateException(
						"Duplicate MCP prompt '" + name + "': a prompt of that name is registered already");
			}
			Map<String, Prompt> copy = new TreeMap<>(this.prompts);
			copy.put(name, prompt);
			this.prompts = copy;
		}
		changed();
	}

	/**
	 * Replace the prompt with the same name, or add it.
	 * @param prompt the prompt
	 */
	public void registerOrReplace(Prompt prompt) {
		synchronized (this) {
			Map<String, Prompt> copy = new TreeMap<>(this.prompts);
			copy.put(prompt.getDefinition().name(), prompt);
			this.prompts = copy;
		}
		changed();
	}

	/**
	 * Remove a prompt.
	 * @param name its name
	 * @return whether there was one
	 */
	public boolean unregister(String name) {
		synchronized (this) {
			if (!this.prompts.containsKey(name)) {
				return false;
			}
			Map<String, Prompt> copy = new TreeMap<>(this.prompts);
			copy.remove(name);
			this.prompts = copy;
		}
		changed();
		return true;
	}

	/**
	 * The prompt of a name.
	 * @param name the name
	 * @return the prompt, or {@code null}
	 */
	public @Nullable Prompt get(String name) {
		return this.prompts.get(name);
	}

	/**
	 * Every prompt, by name.
	 * @return the prompts
	 */
	public List<Prompt> getPrompts() {
		return new ArrayList<>(this.prompts.values());
	}

	/**
	 * Whether no prompt is registered.
	 * @return whether there is none
	 */
	public boolean isEmpty() {
		return this.prompts.isEmpty();
	}

	/**
	 * Be told when prompts are added or removed.
	 * @param listener the listener
	 */
	public void addListener(PromptRegistryListener listener) {
		this.listeners.add(listener);
	}

	private void changed() {
		for (PromptRegistryListener listener : this.listeners) {
			try {
				listener.promptListChanged();
			}
			catch (RuntimeException ex) {
				logger.warn("Prompt registry listener " + listener + " failed", ex);
			}
		}
	}

}
