package io.github.mcpsubscriptions.springai;

import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.tool.ToolRegistry;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Registers every {@link ToolCallback} bean and the callbacks of every
 * {@link ToolCallbackProvider} bean with the {@link ToolRegistry}, once all singletons
 * exist. Two tools of the same name fail the start, as two resources of the same URI do:
 * a client could not tell them apart.
 *
 * @since 0.1.0
 */
public class SpringAiToolRegistrar implements SmartInitializingSingleton {

	private final ToolRegistry registry;

	private final ObjectProvider<ToolCallbackProvider> providers;

	private final ObjectProvider<ToolCallback> callbacks;

	/**
	 * Create a registrar.
	 * @param registry where the tools go
	 * @param providers the providers whose callbacks are served
	 * @param callbacks the callbacks served
	 */
	public SpringAiToolRegistrar(ToolRegistry registry, ObjectProvider<ToolCallbackProvider> providers,
			ObjectProvider<ToolCallback> callbacks) {
		this.registry = registry;
		this.providers = providers;
		this.callbacks = callbacks;
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (ToolCallback callback : tools()) {
			this.registry.register(new SpringAiTool(callback));
		}
	}

	private List<ToolCallback> tools() {
		List<ToolCallback> all = new ArrayList<>(this.callbacks.orderedStream().toList());
		this.providers.orderedStream().forEach((provider) -> all.addAll(List.of(provider.getToolCallbacks())));
		return all;
	}

}
