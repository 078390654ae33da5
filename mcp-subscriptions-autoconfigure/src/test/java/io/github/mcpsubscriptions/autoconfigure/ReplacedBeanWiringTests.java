package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.metrics.McpDispatchObservation;
import io.github.mcpsubscriptions.metrics.McpOperationMetrics;
import io.github.mcpsubscriptions.metrics.McpToolMetrics;
import io.github.mcpsubscriptions.notification.DeliveryScheduler;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.prompt.PromptAccessPolicy;
import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.resource.CacheHints;
import io.github.mcpsubscriptions.resource.ResourceContentMapper;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import io.github.mcpsubscriptions.server.McpServerInfo;
import io.github.mcpsubscriptions.server.SubscriptionLimits;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.tool.ToolAccessPolicy;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.LIST;

/**
 * An application's own bean in place of one of the auto-configured ones keeps the
 * listeners and observers the auto-configuration wires to it (or to the beans it
 * replaces): the wiring is not done in the factory method that backs off.
 */
class ReplacedBeanWiringTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class, McpEndpointAutoConfiguration.class,
				McpMetricsAutoConfiguration.class));

	@Test
	void theDefaultBeansAreWired() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertListening(context.getBean(ToolRegistry.class), context.getBean(PromptRegistry.class),
					context.getBean(ResourceRegistry.class));
			assertThat(context.getBean(NotificationEngine.class)).extracting("dispatcher.observer")
				.isSameAs(context.getBean(McpDispatchObservation.class));
		});
	}

	@Test
	void anApplicationsRequestDispatcherKeepsTheToolAndPromptListChanges() {
		this.runner.withUserConfiguration(OwnRequestDispatcher.class).run((context) -> {
			assertThat(context).hasSingleBean(McpRequestDispatcher.class).hasBean("ownRequestDispatcher");
			assertListening(context.getBean(ToolRegistry.class), context.getBean(PromptRegistry.class),
					context.getBean(ResourceRegistry.class));
		});
	}

	@Test
	void disabledToolsAndPromptsAreNotListenedTo() {
		this.runner.withPropertyValues("mcp.tools.enabled=false", "mcp.prompts.enabled=false").run((context) -> {
			assertThat(context.getBean(ToolRegistry.class)).extracting("listeners").asInstanceOf(LIST).isEmpty();
			assertThat(context.getBean(PromptRegistry.class)).extracting("listeners").asInstanceOf(LIST).isEmpty();
		});
	}

	@Test
	void anApplicationsNotificationDispatcherKeepsTheResourceListChanges() {
		this.runner.withUserConfiguration(OwnNotificationEngine.class).run((context) -> {
			assertThat(context).hasSingleBean(NotificationEngine.class).hasBean("ownNotificationEngine");
			assertListening(context.getBean(ToolRegistry.class), context.getBean(PromptRegistry.class),
					context.getBean(ResourceRegistry.class));
			assertThat(context.getBean(NotificationEngine.class)).extracting("dispatcher.observer")
				.isSameAs(context.getBean(McpDispatchObservation.class));
		});
	}

	@Test
	void anApplicationsDispatchObservationIsWired() {
		McpDispatchObservation own = new McpDispatchObservation(ObservationRegistry.create());
		this.runner.withBean("ownObservation", McpDispatchObservation.class, () -> own)
			.run((context) -> assertThat(context.getBean(NotificationEngine.class)).extracting("dispatcher.observer")
				.isSameAs(own));
	}

	@Test
	void anApplicationsToolAndOperationMetricsAreWired() {
		McpToolMetrics tools = new McpToolMetrics();
		McpOperationMetrics operations = new McpOperationMetrics();
		this.runner.withBean("ownToolMetrics", McpToolMetrics.class, () -> tools)
			.withBean("ownOperationMetrics", McpOperationMetrics.class, () -> operations)
			.run((context) -> {
				McpRequestDispatcher requests = context.getBean(McpRequestDispatcher.class);
				assertThat(requests).extracting("toolMethods").extracting("observer").isSameAs(tools);
				assertThat(requests).extracting("requestObserver").isSameAs(operations);
			});
	}

	@Test
	void anApplicationsRequestDispatcherGetsTheMetrics() {
		this.runner.withUserConfiguration(OwnRequestDispatcher.class).run((context) -> {
			McpRequestDispatcher requests = context.getBean(McpRequestDispatcher.class);
			assertThat(requests).extracting("toolMethods")
				.extracting("observer")
				.isSameAs(context.getBean(McpToolMetrics.class));
			assertThat(requests).extracting("requestObserver").isSameAs(context.getBean(McpOperationMetrics.class));
		});
	}

	private static void assertListening(ToolRegistry tools, PromptRegistry prompts, ResourceRegistry resources) {
		assertThat(tools).extracting("listeners").asInstanceOf(LIST).hasSize(1);
		assertThat(prompts).extracting("listeners").asInstanceOf(LIST).hasSize(1);
		assertThat(resources).extracting("listeners").asInstanceOf(LIST).hasSize(1);
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnRequestDispatcher {

		@Bean
		McpRequestDispatcher ownRequestDispatcher(McpServerInfo serverInfo, McpSessionManager sessions,
				ResourceRegistry resources, ResourceContentMapper contentMapper, NotificationEngine notifications,
				ResourceAccessPolicy accessPolicy, ApplicationEventPublisher events, JsonRpcCodec codec,
				ToolRegistry tools, ToolAccessPolicy toolAccessPolicy, PromptRegistry prompts,
				PromptAccessPolicy promptAccessPolicy) {
			return new McpRequestDispatcher(serverInfo, sessions, resources, contentMapper, List.of(), 50,
					notifications, accessPolicy, new SubscriptionLimits(100, 1000, 0), events, codec,
					new CacheHints(Duration.ZERO, CacheHints.Scope.PRIVATE), true, tools, toolAccessPolicy, 50, prompts,
					promptAccessPolicy, List.of(), 50);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnNotificationEngine {

		@Bean(destroyMethod = "close")
		NotificationEngine ownNotificationEngine(ResourceChangeFeed feed, ResourceAccessPolicy accessPolicy,
				DeliveryScheduler scheduler, JsonRpcCodec codec) {
			return NotificationEngine.builder(feed, accessPolicy, codec, scheduler).build();
		}

	}

}
