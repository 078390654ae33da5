package io.github.mcpsubscriptions.autoconfigure;

import java.time.Clock;
import java.util.UUID;

import io.github.mcpsubscriptions.cluster.ClusterHealthIndicator;
import io.github.mcpsubscriptions.cluster.ClusterKeys;
import io.github.mcpsubscriptions.cluster.ClusterMeterBinder;
import io.github.mcpsubscriptions.cluster.ClusterStats;
import io.github.mcpsubscriptions.cluster.RedisChangeLog;
import io.github.mcpsubscriptions.cluster.RedisEventStore;
import io.github.mcpsubscriptions.cluster.RedisSessionStore;
import io.github.mcpsubscriptions.cluster.RedisStreamHistory;
import io.github.mcpsubscriptions.cluster.RedisWebhookStore;
import io.github.mcpsubscriptions.events.McpEventStore;
import io.github.mcpsubscriptions.events.McpEventsProperties;
import io.github.mcpsubscriptions.events.McpWebhookStore;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.SessionStore;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Auto-configuration for a cluster of MCP endpoints sharing sessions, subscriptions and
 * changes (and, with {@code mcp.events.enabled}, the log of MCP events) through Redis:
 * active with {@code mcp.cluster.enabled=true} and Spring Data Redis. After Spring Data
 * Redis's auto-configuration, whose properties it reads, and before
 * {@link McpEndpointAutoConfiguration}, whose in-memory {@link SessionStore} backs off
 * for the shared one.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpServerAutoConfiguration.class, before = McpEndpointAutoConfiguration.class,
		afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("mcp.cluster.enabled")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ SseEmitter.class, RedisConnectionFactory.class })
@EnableConfigurationProperties(McpClusterProperties.class)
public final class McpClusterAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ClusterStats mcpClusterStats() {
		return new ClusterStats();
	}

	@Bean
	@ConditionalOnMissingBean
	RedisChangeLog mcpClusterChangeLog(RedisConnectionFactory connectionFactory, McpClusterProperties cluster,
			ClusterStats stats) {
		String nodeName = (cluster.getNodeName() != null) ? cluster.getNodeName()
				: "node-" + UUID.randomUUID().toString().substring(0, 8);
		return new RedisChangeLog(new StringRedisTemplate(connectionFactory), new ClusterKeys(cluster.getKeyPrefix()),
				cluster.getLogSize(), cluster.getPollTimeout(), nodeName, stats);
	}

	@Bean
	@ConditionalOnMissingBean(SessionStore.class)
	RedisSessionStore mcpSessionStore(RedisConnectionFactory connectionFactory, McpClusterProperties cluster,
			McpProperties properties, RedisChangeLog log, ClusterStats stats) {
		return new RedisSessionStore(new StringRedisTemplate(connectionFactory),
				new ClusterKeys(cluster.getKeyPrefix()), log, properties.getSessions().getIdleTimeout(),
				Clock.systemUTC(), stats);
	}

	@Bean
	@ConditionalOnMissingBean
	RedisStreamHistory mcpSessionStreamHistory(RedisConnectionFactory connectionFactory, McpClusterProperties cluster,
			McpProperties properties, RedisChangeLog log, NotificationEngine dispatcher,
			ObjectProvider<McpSessionManager> sessions, ClusterStats stats) {
		RedisStreamHistory history = new RedisStreamHistory(new StringRedisTemplate(connectionFactory),
				new ClusterKeys(cluster.getKeyPrefix()), log, dispatcher, log.getNodeName(), sessions::getObject,
				stats);
		history.setMaxReplay(properties.getSessions().getMaxReplay());
		return history;
	}

	@Bean
	@ConditionalOnMissingBean
	ClusterStartLog mcpClusterStartLog(RedisChangeLog log, McpClusterProperties cluster,
			ListableBeanFactory beanFactory) {
		return new ClusterStartLog(log.getNodeName(), cluster.getKeyPrefix(), beanFactory);
	}

	/**
	 * The event log and the webhook subscriptions of the Events extension in Redis,
	 * shared by the nodes, when the extension is on.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("mcp.events.enabled")
	@EnableConfigurationProperties(McpEventsProperties.class)
	static class ClusterEventsConfiguration {

		@Bean
		@ConditionalOnMissingBean(McpEventStore.class)
		RedisEventStore mcpEventStore(RedisConnectionFactory connectionFactory, McpClusterProperties cluster,
				McpEventsProperties events, RedisChangeLog log, ClusterStats stats) {
			return new RedisEventStore(new StringRedisTemplate(connectionFactory),
					new ClusterKeys(cluster.getKeyPrefix()), events.getRetentionSize(), events.getRetentionAge(),
					log.getNodeName(), stats);
		}

		@Bean
		@ConditionalOnMissingBean(McpWebhookStore.class)
		RedisWebhookStore mcpWebhookStore(RedisConnectionFactory connectionFactory, McpClusterProperties cluster,
				RedisChangeLog log, ClusterStats stats) {
			return new RedisWebhookStore(new StringRedisTemplate(connectionFactory),
					new ClusterKeys(cluster.getKeyPrefix()), log.getNodeName(), stats);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "io.lettuce.core.ClientOptions",
			"org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer" })
	static class ClusterRedisClientConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "mcpClusterRedisClientCustomizer")
		@ConditionalOnBean(DataRedisProperties.class)
		ClusterRedisClientCustomizer mcpClusterRedisClientCustomizer(DataRedisProperties redisProperties,
				McpClusterProperties cluster) {
			return new ClusterRedisClientCustomizer(redisProperties, cluster.getPollTimeout());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
	static class ClusterHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "mcpClusterHealthIndicator")
		ClusterHealthIndicator mcpClusterHealthIndicator(RedisChangeLog log, ClusterStats stats) {
			return new ClusterHealthIndicator(log, stats);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
	static class ClusterMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ClusterMeterBinder mcpClusterMeterBinder(ClusterStats stats) {
			return new ClusterMeterBinder(stats);
		}

	}

}
