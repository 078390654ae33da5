package io.github.mcpsubscriptions.sample.catalog;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link CatalogEventAccess} where the MCP rules are enforced
 * ({@code mcp.security.enabled}, profile {@code secure}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("mcp.security.enabled")
class CatalogEventAccessConfiguration {

	@Bean
	CatalogEventAccess catalogEventAccess(CatalogAccess access) {
		return new CatalogEventAccess(access);
	}

}
