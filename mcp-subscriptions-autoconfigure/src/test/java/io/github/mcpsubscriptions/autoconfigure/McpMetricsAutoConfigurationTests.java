package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.metrics.McpDispatchObservation;
import io.github.mcpsubscriptions.metrics.McpHealthIndicator;
import io.github.mcpsubscriptions.metrics.McpMetrics;
import io.github.mcpsubscriptions.metrics.McpSubscriptionsEndpoint;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class McpMetricsAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class, McpEndpointAutoConfiguration.class,
				McpMetricsAutoConfiguration.class));

	@Test
	void createsMetricsObservationEndpointAndHealth() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(McpMetrics.class)
			.hasSingleBean(McpDispatchObservation.class)
			.hasSingleBean(McpSubscriptionsEndpoint.class)
			.hasSingleBean(McpHealthIndicator.class));
	}

	@Test
	void backsOffForUserBeans() {
		this.runner.withBean("customMetrics", McpMetrics.class, () -> new McpMetrics(null, null, null))
			.run((context) -> assertThat(context).hasSingleBean(McpMetrics.class).hasBean("customMetrics"));
	}

	@Test
	void noMetricsWithoutMicrometer() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterBinder.class))
			.run((context) -> assertThat(context).doesNotHaveBean(McpMetrics.class)
				.hasSingleBean(McpSubscriptionsEndpoint.class));
	}

	@Test
	void noObservationWithoutMicrometerObservation() {
		this.runner.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(McpDispatchObservation.class));
	}

	@Test
	void noEndpointWithoutActuator() {
		this.runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).doesNotHaveBean(McpSubscriptionsEndpoint.class)
				.hasSingleBean(McpMetrics.class));
	}

	@Test
	void noHealthWithoutHealthModule() {
		this.runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).doesNotHaveBean(McpHealthIndicator.class));
	}

	@Test
	void nothingWithoutTheServer() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class,
					McpEndpointAutoConfiguration.class, McpMetricsAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(McpSessionManager.class)
				.doesNotHaveBean(NotificationEngine.class)
				.doesNotHaveBean(McpMetrics.class)
				.doesNotHaveBean(McpSubscriptionsEndpoint.class));
	}

	@Test
	void bindsManagementProperties() {
		this.runner
			.withPropertyValues("mcp.management.allow-session-close=true", "mcp.management.top-uris=3",
					"mcp.management.health-max-backlog=5")
			.run((context) -> {
				McpManagementProperties management = context.getBean(McpManagementProperties.class);
				assertThat(management.isAllowSessionClose()).isTrue();
				assertThat(management.getTopUris()).isEqualTo(3);
				assertThat(management.getHealthMaxBacklog()).isEqualTo(5);
			});
	}

}
