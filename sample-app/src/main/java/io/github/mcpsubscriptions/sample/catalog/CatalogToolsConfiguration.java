package io.github.mcpsubscriptions.sample.catalog;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring AI's way to offer {@code @Tool} methods: a {@link ToolCallbackProvider} bean.
 * The starter serves every such bean's tools on {@code /mcp}.
 */
@Configuration(proxyBeanMethods = false)
class CatalogToolsConfiguration {

	@Bean
	ToolCallbackProvider catalogToolCallbacks(CatalogTools tools) {
		return MethodToolCallbackProvider.builder().toolObjects(tools).build();
	}

}
