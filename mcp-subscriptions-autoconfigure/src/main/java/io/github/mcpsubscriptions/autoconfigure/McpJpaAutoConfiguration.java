package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.jpa.McpResourceEntity;
import io.github.mcpsubscriptions.notification.PublishedChangeFilter;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import jakarta.persistence.EntityManagerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for changes from JPA: the committed changes of entities annotated
 * with {@link McpResourceEntity} notify subscribers. Active with Hibernate, an
 * {@link EntityManagerFactory} and the MCP endpoint's change feed.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpEndpointAutoConfiguration.class,
		afterName = "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration")
@ConditionalOnBooleanProperty(name = { "mcp.enabled", "mcp.jpa.enabled" }, matchIfMissing = true)
@ConditionalOnClass(
		name = { "jakarta.persistence.EntityManagerFactory", "org.hibernate.event.spi.PostCommitInsertEventListener" })
@ConditionalOnBean(type = { "jakarta.persistence.EntityManagerFactory",
		"io.github.mcpsubscriptions.notification.ResourceChangeFeed" })
@EnableConfigurationProperties(McpJpaProperties.class)
public final class McpJpaAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	static ResourceEntityPostProcessor mcpResourceEntityPostProcessor(ObjectProvider<ResourceChangeFeed> feed,
			ObjectProvider<PublishedChangeFilter> filters) {
		return new ResourceEntityPostProcessor(feed, filters);
	}

}
