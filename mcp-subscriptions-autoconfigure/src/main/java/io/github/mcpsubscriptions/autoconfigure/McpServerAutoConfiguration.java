package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.prompt.McpPromptMethodProcessor;
import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.resource.McpResourceMethodProcessor;
import io.github.mcpsubscriptions.resource.ResourceContentMapper;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for the parts of the MCP server that do not depend on a web server:
 * the wire format, the resources, the tools' and the prompts' registries.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
@EnableConfigurationProperties(McpProperties.class)
public final class McpServerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	JsonRpcCodec mcpJsonRpcCodec() {
		return new JsonRpcCodec();
	}

	@Bean
	@ConditionalOnMissingBean
	ResourceRegistry mcpResourceRegistry() {
		return new ResourceRegistry();
	}

	@Bean
	@ConditionalOnMissingBean
	ToolRegistry mcpToolRegistry() {
		return new ToolRegistry();
	}

	@Bean
	@ConditionalOnMissingBean
	PromptRegistry mcpPromptRegistry() {
		return new PromptRegistry();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "mcp.prompts.enabled", matchIfMissing = true)
	McpPromptMethodProcessor mcpPromptMethodProcessor(PromptRegistry registry) {
		return new McpPromptMethodProcessor(registry, ApplicationConversionService.getSharedInstance());
	}

	@Bean
	@ConditionalOnMissingBean
	McpResourceMethodProcessor mcpResourceMethodProcessor(ResourceRegistry registry) {
		return new McpResourceMethodProcessor(registry, ApplicationConversionService.getSharedInstance());
	}

	@Bean
	@ConditionalOnMissingBean
	ResourceContentMapper mcpResourceContentMapper(ObjectProvider<JsonMapper> jsonMapper, JsonRpcCodec codec) {
		// Resource contents are application data: the application's mapper writes them.
		JsonMapper mapper = jsonMapper.getIfAvailable();
		return new ResourceContentMapper((mapper != null) ? mapper::writeValueAsString : codec::writeAsString);
	}

}
