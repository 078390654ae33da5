package io.github.mcpsubscriptions.tool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The tools the server offers, listed by name (so that pages stay stable). Adding or
 * removing one tells the {@link ToolRegistryListener}s, which send
 * {@code notifications/tools/list_changed} to the clients that want it. Each tool's input
 * schema is parsed once, when it is registered, so a tool with an invalid schema is
 * refused at once.
 *
 * @since 0.1.0
 */
public class ToolRegistry {

	private static final Log logger = LogFactory.getLog(ToolRegistry.class);

	private final List<ToolRegistryListener> listeners = new CopyOnWriteArrayList<>();

	private volatile Map<String, RegisteredTool> tools = Map.of();

	/**
	 * Add a tool.
	 * @param tool the tool
	 * @throws IllegalStateException if one with the same name is registered already
	 * @throws IllegalArgumentException if its input or output schema is not a JSON object
	 */
	public void register(McpTool tool) {
		RegisteredTool registered = RegisteredTool.of(tool);
		synchronized (this) {
			if (this.tools.containsKey(registered.name())) {
				throw new IllegalStateException(
						"Duplicate MCP tool '" + registered.name() + "': a tool of that name is registered already");
			}
			Map<String, RegisteredTool> copy = new TreeMap<>(this.tools);
			copy.put(registered.name(), registered);
			this.tools = copy;
		}
		changed();
	}

	/**
	 * Replace the tool with the same name, or add it.
	 * @param tool the tool
	 */
	public void registerOrReplace(McpTool tool) {
		RegisteredTool registered = RegisteredTool.of(tool);
		synchronized (this) {
			Map<String, RegisteredTool> copy = new TreeMap<>(this.tools);
			copy.put(registered.name(), registered);
			this.tools = copy;
		}
		changed();
	}

	/**
	 * Remove a tool.
	 * @param name its name
	 * @return whether there was one
	 */
	public boolean unregister(String name) {
		synchronized (this) {
			if (!this.tools.containsKey(name)) {
				return false;
			}
			Map<String, RegisteredTool> copy = new TreeMap<>(this.tools);
			copy.remove(name);
			this.tools = copy;
		}
		changed();
		return true;
	}

	/**
	 * The tool of a name.
	 * @param name the name
	 * @return the tool, or {@code null}
	 */
	public @Nullable RegisteredTool get(String name) {
		return this.tools.get(name);
	}

	/**
	 * Every tool, by name.
	 * @return the tools
	 */
	public List<RegisteredTool> getTools() {
		return new ArrayList<>(this.tools.values());
	}

	/**
	 * Whether no tool is registered.
	 * @return whether there is none
	 */
	public boolean isEmpty() {
		return this.tools.isEmpty();
	}

	public void addListener(ToolRegistryListener listener) {
		this.listeners.add(listener);
	}

	private void changed() {
		for (ToolRegistryListener listener : this.listeners) {
			try {
				listener.toolListChanged();
			}
			catch (RuntimeException ex) {
				logger.warn("Tool registry listener " + listener + " failed", ex);
			}
		}
	}

}
