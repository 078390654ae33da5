package io.github.mcpsubscriptions.autoconfigure;

import java.time.Clock;

import io.github.mcpsubscriptions.metrics.McpDispatchObservation;
import io.github.mcpsubscriptions.metrics.McpHealthIndicator;
import io.github.mcpsubscriptions.metrics.McpMetrics;
import io.github.mcpsubscriptions.metrics.McpOperationMetrics;
import io.github.mcpsubscriptions.metrics.McpSessionMetrics;
import io.github.mcpsubscriptions.metrics.McpSubscriptionsEndpoint;
import io.github.mcpsubscriptions.metrics.McpToolMetrics;
import io.github.mcpsubscriptions.notification.NotificationDispatcher;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import io.github.mcpsubscriptions.server.McpServerInfo;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration for observing MCP subscriptions: Micrometer meters, a dispatch
 * observation, the {@code mcpsubscriptions} Actuator endpoint and a health indicator,
 * each only when its library is present.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpEndpointAutoConfiguration.class)
@ConditionalOnBean({ McpSessionManager.class, NotificationDispatcher.class })
public final class McpMetricsAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class MeterConfiguration {

		@Bean
		@ConditionalOnMissingBean
		McpMetrics mcpMetrics(McpSessionManager sessions, NotificationDispatcher dispatcher,
				ObjectProvider<ListenManager> listens, ObjectProvider<McpRequestDispatcher> requests) {
			McpRequestDispatcher requestDispatcher = requests.getIfAvailable();
			return new McpMetrics(sessions, dispatcher, listens.getIfAvailable(),
					(requestDispatcher != null) ? requestDispatcher.getLimitStats() : null);
		}

		@Bean
		@ConditionalOnMissingBean
		McpToolMetrics mcpToolMetrics(ObjectProvider<McpRequestDispatcher> requests) {
			McpToolMetrics metrics = new McpToolMetrics();
			requests.ifAvailable((dispatcher) -> dispatcher.setToolCallObserver(metrics));
			return metrics;
		}

		@Bean
		@ConditionalOnMissingBean
		McpOperationMetrics mcpOperationMetrics(ObjectProvider<McpRequestDispatcher> requests) {
			McpOperationMetrics metrics = new McpOperationMetrics();
			requests.ifAvailable((dispatcher) -> dispatcher.setRequestObserver(metrics));
			return metrics;
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
		McpDispatchObservation mcpDispatchObservation(ObjectProvider<ObservationRegistry> registry,
				NotificationDispatcher dispatcher) {
			McpDispatchObservation observation = new McpDispatchObservation(
					registry.getIfAvailable(() -> ObservationRegistry.NOOP));
			dispatcher.setObserver(observation);
			return observation;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class EndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		McpSubscriptionsEndpoint mcpSubscriptionsEndpoint(McpSessionManager sessions, NotificationDispatcher dispatcher,
				McpProperties properties, McpServerInfo serverInfo, ResourceChangeFeed feed) {
			return new McpSubscriptionsEndpoint(sessions, dispatcher,
					McpConfigurationDescription.describe(properties, serverInfo),
					properties.getManagement().getTopUris(), properties.getManagement().isAllowSessionClose(),
					feed.getNodeName());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	static class HealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "mcpHealthIndicator")
		McpHealthIndicator mcpHealthIndicator(NotificationDispatcher dispatcher, McpProperties properties,
				ObjectProvider<ListenManager> listens) {
			return new McpHealthIndicator(dispatcher, properties.getManagement().getHealthMaxBacklog(),
					listens.getIfAvailable());
		}

	}

}
