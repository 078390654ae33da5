package io.github.mcpsubscriptions.autoconfigure;

import java.time.Clock;

import io.github.mcpsubscriptions.metrics.McpDispatchObservation;
import io.github.mcpsubscriptions.metrics.McpHealthIndicator;
import io.github.mcpsubscriptions.metrics.McpMetrics;
import io.github.mcpsubscriptions.metrics.McpOperationMetrics;
import io.github.mcpsubscriptions.metrics.McpSessionMetrics;
import io.github.mcpsubscriptions.metrics.McpSubscriptionsEndpoint;
import io.github.mcpsubscriptions.metrics.McpToolMetrics;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import io.github.mcpsubscriptions.server.McpServerInfo;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration for observing MCP subscriptions: Micrometer meters, a dispatch
 * observation, the {@code mcpsubscriptions} Actuator endpoint and a health indicator,
 * each only when its library is present.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpEndpointAutoConfiguration.class)
@ConditionalOnBean({ McpSessionManager.class, NotificationEngine.class })
@EnableConfigurationProperties(McpManagementProperties.class)
public final class McpMetricsAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class MeterConfiguration {

		@Bean
		@ConditionalOnMissingBean
		McpMetrics mcpMetrics(McpSessionManager sessions, NotificationEngine dispatcher,
				ObjectProvider<ListenManager> listens, ObjectProvider<McpRequestDispatcher> requests) {
			McpRequestDispatcher requestDispatcher = requests.getIfAvailable();
			return new McpMetrics(sessions, dispatcher, listens.getIfAvailable(),
					(requestDispatcher != null) ? requestDispatcher.getLimitStats() : null);
		}

		@Bean
		@ConditionalOnMissingBean
		McpToolMetrics mcpToolMetrics() {
			return new McpToolMetrics();
		}

		@Bean
		@ConditionalOnMissingBean
		McpOperationMetrics mcpOperationMetrics() {
			return new McpOperationMetrics();
		}

		/**
		 * The request dispatcher reports to the tool and operation metrics. Wired apart
		 * from the factory methods, so that an application's own metrics (or request
		 * dispatcher) are wired as well.
		 */
		@Bean
		SmartInitializingSingleton mcpRequestObservers(ObjectProvider<McpRequestDispatcher> requests,
				ObjectProvider<McpToolMetrics> toolMetrics, ObjectProvider<McpOperationMetrics> operationMetrics) {
			return () -> requests.ifUnique((dispatcher) -> {
				toolMetrics.ifUnique(dispatcher::setToolCallObserver);
				operationMetrics.ifUnique(dispatcher::setRequestObserver);
			});
		}

		@Bean
		@ConditionalOnMissingBean
		McpSessionMetrics mcpSessionMetrics() {
			// A session listener: the session manager collects it when it is created.
			return new McpSessionMetrics(Clock.systemUTC());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ObservationRegistry.class)
	static class ObservationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		McpDispatchObservation mcpDispatchObservation(ObjectProvider<ObservationRegistry> registry) {
			return new McpDispatchObservation(registry.getIfAvailable(() -> ObservationRegistry.NOOP));
		}

		/**
		 * The notification dispatcher reports to the observation. Wired apart from the
		 * factory method, so that an application's own observation (or dispatcher) is
		 * wired as well.
		 */
		@Bean
		SmartInitializingSingleton mcpDispatchObserver(NotificationEngine dispatcher,
				ObjectProvider<McpDispatchObservation> observation) {
			return () -> observation.ifUnique(dispatcher::setObserver);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class EndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		McpSubscriptionsEndpoint mcpSubscriptionsEndpoint(McpSessionManager sessions, NotificationEngine dispatcher,
				McpProperties properties, McpManagementProperties management, McpServerInfo serverInfo,
				ResourceChangeFeed feed, Environment environment) {
			return new McpSubscriptionsEndpoint(sessions, dispatcher,
					McpConfigurationDescription.describe(properties, serverInfo, environment), management.getTopUris(),
					management.isAllowSessionClose(), feed.getNodeName());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	static class HealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "mcpHealthIndicator")
		McpHealthIndicator mcpHealthIndicator(NotificationEngine dispatcher, McpManagementProperties management,
				ObjectProvider<ListenManager> listens) {
			return new McpHealthIndicator(dispatcher, management.getHealthMaxBacklog(), listens.getIfAvailable());
		}

	}

}
