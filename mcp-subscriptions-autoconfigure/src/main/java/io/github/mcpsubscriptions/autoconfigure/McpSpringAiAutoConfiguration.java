package io.github.mcpsubscriptions.autoconfigure;

import java.util.List;

import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.springai.SpringAiAnnotationsRegistrar;
import io.github.mcpsubscriptions.springai.SpringAiMcpServerPresentException;
import io.github.mcpsubscriptions.springai.SpringAiToolRegistrar;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration for Spring AI: its {@code ToolCallback} and
 * {@code ToolCallbackProvider} beans become MCP tools, and with
 * {@code spring-ai-mcp-annotations} on the class path, methods annotated with its
 * {@code @McpTool}, {@code @McpResource}, {@code @McpPrompt} and {@code @McpComplete} are
 * served by this server. With Spring AI's own MCP server on the class path as well, the
 * start fails: the application would serve two MCP endpoints.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpServerAutoConfiguration.class, before = McpEndpointAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
public final class McpSpringAiAutoConfiguration {

	/**
	 * Spring AI's MCP server auto-configurations: since 1.1 in its common module, before
	 * that in one of their own.
	 */
	static final List<String> SPRING_AI_SERVER_AUTO_CONFIGURATIONS = List.of(
			"org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration",
			"org.springframework.ai.mcp.server.autoconfigure.McpServerAutoConfiguration");

	McpSpringAiAutoConfiguration(ApplicationContext context) {
		String found = springAiServer(context.getClassLoader());
		if (found != null) {
			throw new SpringAiMcpServerPresentException(found);
		}
	}

	private static @Nullable String springAiServer(@Nullable ClassLoader classLoader) {
		// Looked up as a resource, not loaded: whether the class is on the class path
		// is all that matters, and loading it would load Spring AI's server with it.
		ClassLoader loader = (classLoader != null) ? classLoader : McpSpringAiAutoConfiguration.class.getClassLoader();
		for (String name : SPRING_AI_SERVER_AUTO_CONFIGURATIONS) {
			if (loader.getResource(name.replace('.', '/') + ".class") != null) {
				return name;
			}
		}
		return null;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(
			name = { "org.springframework.ai.mcp.annotation.McpTool", "io.modelcontextprotocol.spec.McpSchema" })
	static class SpringAiAnnotationsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		SpringAiAnnotationsRegistrar mcpSpringAiAnnotationsRegistrar(ToolRegistry tools, ResourceRegistry resources,
				PromptRegistry prompts, Environment environment) {
			// Tools and prompts switched off are not served, whichever annotation
			// declares them.
			return new SpringAiAnnotationsRegistrar(enabled(environment, "mcp.tools.enabled") ? tools : null, resources,
					enabled(environment, "mcp.prompts.enabled") ? prompts : null);
		}

		private static boolean enabled(Environment environment, String property) {
			return environment.getProperty(property, Boolean.class, true);
		}

	}

	/**
	 * With Spring AI's tool API: its {@code ToolCallback} and
	 * {@code ToolCallbackProvider} beans become MCP tools.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.ai.tool.ToolCallbackProvider")
	@ConditionalOnBooleanProperty(name = "mcp.tools.enabled", matchIfMissing = true)
	static class SpringAiToolsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		SpringAiToolRegistrar mcpSpringAiToolRegistrar(ToolRegistry registry,
				ObjectProvider<ToolCallbackProvider> providers, ObjectProvider<ToolCallback> callbacks) {
			return new SpringAiToolRegistrar(registry, providers, callbacks);
		}

	}

}
