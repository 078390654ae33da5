package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for the parts of the MCP server that
 * do not depend on a web server.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
@EnableConfigurationProperties(McpProperties.class)
public final class McpServerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	JsonRpcCodec mcpJsonRpcCodec() {
		return new JsonRpcCodec();
	}

}
