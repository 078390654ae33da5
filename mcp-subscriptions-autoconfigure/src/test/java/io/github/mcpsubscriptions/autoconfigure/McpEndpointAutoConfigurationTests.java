package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.notification.ExecutorDeliveryScheduler;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.prompt.McpPromptMethodProcessor;
import io.github.mcpsubscriptions.prompt.PromptAccessPolicy;
import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.security.McpProtectedResource;
import io.github.mcpsubscriptions.security.PromptRuleAccessPolicy;
import io.github.mcpsubscriptions.security.ResourceRuleAccessPolicy;
import io.github.mcpsubscriptions.security.ToolRuleAccessPolicy;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import io.github.mcpsubscriptions.server.McpServerInfo;
import io.github.mcpsubscriptions.session.InMemorySessionStore;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.SessionIdGenerator;
import io.github.mcpsubscriptions.session.SessionStore;
import io.github.mcpsubscriptions.springai.SpringAiToolRegistrar;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.tool.ToolAccessPolicy;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import io.github.mcpsubscriptions.transport.McpEndpoint;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.util.unit.DataSize;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import static org.assertj.core.api.Assertions.assertThat;

class McpEndpointAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class, McpSpringAiAutoConfiguration.class,
				McpSecurityAutoConfiguration.class, McpEndpointAutoConfiguration.class));

	@Test
	void createsEndpointAndItsCollaborators() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(McpEndpoint.class)
			.hasSingleBean(McpRequestDispatcher.class)
			.hasSingleBean(McpSessionManager.class)
			.hasSingleBean(JsonRpcCodec.class)
			.hasSingleBean(SessionIdGenerator.class)
			.getBean(SessionStore.class)
			.isInstanceOf(InMemorySessionStore.class));
	}

	@Test
	@SuppressWarnings("unchecked")
	void dnsRebindingFilterRunsOnlyOnTheProtectedPaths() {
		// No paths: no registration at all, rather than a disabled one that the server
		// logs
		// at start-up as "Filter mcpDnsRebindingFilter was not registered (disabled)".
		this.runner.run((context) -> assertThat(context).doesNotHaveBean("mcpDnsRebindingFilter"));
		this.runner.withPropertyValues("mcp.endpoint.protected-paths=")
			.run((context) -> assertThat(context).doesNotHaveBean("mcpDnsRebindingFilter"));
		this.runner.withPropertyValues("mcp.endpoint.protected-paths[0]=/api/*")
			.run((context) -> assertThat(
					context.getBean("mcpDnsRebindingFilter", FilterRegistrationBean.class).getUrlPatterns())
				.containsExactly("/api/*"));
		this.runner.withPropertyValues("mcp.endpoint.protected-paths=/api/*,/actuator/*").run((context) -> {
			FilterRegistrationBean<?> registration = context.getBean("mcpDnsRebindingFilter",
					FilterRegistrationBean.class);
			assertThat(registration.isEnabled()).isTrue();
			assertThat(registration.getUrlPatterns()).containsExactly("/api/*", "/actuator/*");
		});
		this.runner
			.withPropertyValues("mcp.endpoint.protected-paths=/api/*", "mcp.endpoint.dns-rebinding-protection=false")
			.run((context) -> assertThat(context).doesNotHaveBean("mcpDnsRebindingFilter"));
	}

	@Test
	void theResourcesRulesDecideAccessWithSpringSecurity() {
		this.runner.run((context) -> assertThat(context.getBean(ResourceAccessPolicy.class))
			.isInstanceOf(ResourceRuleAccessPolicy.class));
	}

	@Test
	void anAccessPolicyOfTheApplicationOverridesTheRules() {
		ResourceAccessPolicy own = new ResourceAccessPolicy() {
		};
		this.runner.withBean(ResourceAccessPolicy.class, () -> own)
			.run((context) -> assertThat(context.getBean(ResourceAccessPolicy.class)).isSameAs(own));
	}

	@Test
	void theToolMethodsRulesDecideToolAccessWithSpringSecurity() {
		this.runner.run((context) -> assertThat(context.getBean(ToolAccessPolicy.class))
			.isInstanceOf(ToolRuleAccessPolicy.class));
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run((context) -> assertThat(context.getBean(ToolAccessPolicy.class))
				.isSameAs(ToolAccessPolicy.PERMIT_ALL));
		ToolAccessPolicy own = (principal, tool) -> false;
		this.runner.withBean(ToolAccessPolicy.class, () -> own)
			.run((context) -> assertThat(context.getBean(ToolAccessPolicy.class)).isSameAs(own));
	}

	@Test
	void thePromptMethodsRulesDecidePromptAccessWithSpringSecurity() {
		this.runner.run((context) -> assertThat(context.getBean(PromptAccessPolicy.class))
			.isInstanceOf(PromptRuleAccessPolicy.class));
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run((context) -> assertThat(context.getBean(PromptAccessPolicy.class))
				.isSameAs(PromptAccessPolicy.PERMIT_ALL));
		PromptAccessPolicy own = (principal, prompt) -> false;
		this.runner.withBean(PromptAccessPolicy.class, () -> own)
			.run((context) -> assertThat(context.getBean(PromptAccessPolicy.class)).isSameAs(own));
	}

	@Test
	void promptMethodsAreFoundUnlessPromptsAreDisabled() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(McpPromptMethodProcessor.class)
			.hasSingleBean(PromptRegistry.class));
		this.runner.withPropertyValues("mcp.prompts.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(McpPromptMethodProcessor.class)
				.hasSingleBean(McpRequestDispatcher.class));
	}

	@Test
	void springAiToolsAreServedWhenSpringAiIsPresentAndToolsAreEnabled() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(SpringAiToolRegistrar.class)
			.hasSingleBean(ToolRegistry.class));
		this.runner.withPropertyValues("mcp.tools.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(SpringAiToolRegistrar.class));
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.ai"))
			.run((context) -> assertThat(context).doesNotHaveBean(SpringAiToolRegistrar.class)
				.hasSingleBean(McpRequestDispatcher.class));
	}

	@Test
	void permitsAllWithoutSpringSecurityOrWhenDisabled() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run((context) -> assertThat(context.getBean(ResourceAccessPolicy.class))
				.isSameAs(ResourceAccessPolicy.PERMIT_ALL));
		this.runner.withPropertyValues("mcp.security.enabled=false")
			.run((context) -> assertThat(context.getBean(ResourceAccessPolicy.class))
				.isSameAs(ResourceAccessPolicy.PERMIT_ALL));
	}

	@Test
	void describesTheProtectedResourceWhenItsUriIsSet() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(McpProtectedResource.class));
		this.runner
			.withPropertyValues("mcp.security.oauth2.resource=https://mcp.example.com/mcp",
					"mcp.security.oauth2.authorization-servers=https://auth.example.com",
					"mcp.security.oauth2.scopes=orders:read,orders:write")
			.run((context) -> {
				McpProtectedResource resource = context.getBean(McpProtectedResource.class);
				assertThat(resource.authorizationServers()).containsExactly("https://auth.example.com");
				assertThat(resource.scopes()).containsExactly("orders:read", "orders:write");
				assertThat(resource.metadataUrl())
					.isEqualTo("https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
			});
		this.runner.withPropertyValues("mcp.security.oauth2.resource=/mcp")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("mcp.security.oauth2.resource"));
	}

	@Test
	void noEndpointWithoutWebApplication() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(McpServerAutoConfiguration.class, McpEndpointAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(JsonRpcCodec.class)
				.doesNotHaveBean(McpEndpoint.class)
				.doesNotHaveBean(McpSessionManager.class));
	}

	@Test
	void noEndpointWithoutSpringMvc() {
		this.runner.withClassLoader(new FilteredClassLoader(SseEmitter.class))
			.run((context) -> assertThat(context).doesNotHaveBean(McpEndpoint.class));
	}

	@Test
	void disabledByProperty() {
		this.runner.withPropertyValues("mcp.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(McpEndpoint.class)
				.doesNotHaveBean(JsonRpcCodec.class)
				.doesNotHaveBean(McpProperties.class));
	}

	@Test
	void backsOffForUserBeans() {
		this.runner.withUserConfiguration(UserBeans.class).run((context) -> {
			assertThat(context).hasSingleBean(SessionStore.class)
				.hasSingleBean(SessionIdGenerator.class)
				.hasSingleBean(McpServerInfo.class);
			assertThat(context.getBean(SessionStore.class)).isSameAs(context.getBean("customStore"));
			assertThat(context.getBean(SessionIdGenerator.class).generateId()).isEqualTo("fixed");
			assertThat(context.getBean(McpServerInfo.class).name()).isEqualTo("custom");
		});
	}

	@Test
	void bindsProperties() {
		this.runner
			.withPropertyValues("mcp.endpoint.path=/ai/mcp", "mcp.endpoint.heartbeat-interval=5s",
					"mcp.endpoint.max-request-size=64KB", "mcp.endpoint.allowed-origins=https://a.example.com",
					"mcp.endpoint.allowed-hosts=api.example.com", "mcp.endpoint.dns-rebinding-protection=false",
					"mcp.sessions.idle-timeout=2m", "mcp.sessions.max=7", "mcp.server.name=n", "mcp.server.version=v",
					"mcp.server.title=t", "mcp.server.instructions=i")
			.run((context) -> {
				McpProperties properties = context.getBean(McpProperties.class);
				assertThat(properties.getEndpoint().getPath()).isEqualTo("/ai/mcp");
				assertThat(properties.getEndpoint().getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
				assertThat(properties.getEndpoint().getMaxRequestSize()).isEqualTo(DataSize.ofKilobytes(64));
				assertThat(properties.getEndpoint().getAllowedOrigins()).containsExactly("https://a.example.com");
				assertThat(properties.getEndpoint().getAllowedHosts()).containsExactly("api.example.com");
				assertThat(properties.getEndpoint().isDnsRebindingProtection()).isFalse();
				assertThat(properties.getSessions().getIdleTimeout()).isEqualTo(Duration.ofMinutes(2));
				assertThat(properties.getSessions().getMax()).isEqualTo(7);
				assertThat(context.getBean(McpServerInfo.class)).isEqualTo(new McpServerInfo("n", "v", "t", "i"));
			});
	}

	@Test
	void bindsRateLimitsByUriPattern() {
		// As YAML or an escaped properties key would give it: the key keeps its colon.
		this.runner.withPropertyValues("mcp.notifications.min-interval=1s")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("uri-patterns",
						Map.of("mcp.notifications.min-interval-by-uri[catalog://products/*]", "2s"))))
			.run((context) -> {
				McpProperties.Notifications notifications = context.getBean(McpProperties.class).getNotifications();
				assertThat(notifications.getMinIntervalByUri())
					.containsExactly(Map.entry("catalog://products/*", Duration.ofSeconds(2)));
				// As the engine applies them.
				@SuppressWarnings("unchecked")
				Function<String, Duration> intervals = (Function<String, Duration>) ReflectionTestUtils.getField(
						ReflectionTestUtils.getField(context.getBean(NotificationEngine.class), "dispatcher"),
						"minInterval");
				assertThat(intervals.apply("catalog://products/{id}")).isEqualTo(Duration.ofSeconds(2));
				assertThat(intervals.apply("file:///logs/")).isEqualTo(Duration.ofSeconds(1));
			});
	}

	@Test
	void theDefaultStreamLimitsAgree() {
		// A 2026 listen client holds a connection as long as a 2025 session holds its
		// stream:
		// a node takes as many of either by default, so neither is the first limit met.
		McpProperties defaults = new McpProperties();
		assertThat(defaults.getListen().getMaxStreams()).isEqualTo(defaults.getSessions().getMax()).isEqualTo(10_000);
	}

	@Test
	void deliveryKeepsToItsShareOfTheCores() {
		int cores = Runtime.getRuntime().availableProcessors();
		this.runner.run((context) -> assertThat(context.getBean(ExecutorDeliveryScheduler.class).getParallelism())
			.isEqualTo(Math.max(1, cores / 2)));
		this.runner.withPropertyValues("mcp.notifications.delivery-cpu-share=3")
			.run((context) -> assertThat(context.getBean(ExecutorDeliveryScheduler.class).getParallelism())
				.isEqualTo(3 * cores));
	}

	@Test
	void deliveryGathersDrainsAtSaturationForTheSchedulersOwnWindow() {
		// An engine setting, not a property (see the CHANGELOG): the key is not bound.
		this.runner.withPropertyValues("mcp.notifications.gathering-window=0")
			.run((context) -> assertThat(context.getBean(ExecutorDeliveryScheduler.class).getGatheringWindow())
				.isEqualTo(ExecutorDeliveryScheduler.DEFAULT_GATHERING_WINDOW)
				.isEqualTo(Duration.ofMillis(100)));
	}

	@Test
	void deliverySpacesALanesTurnsAtSaturationByAnIntervalThatIsConfigurable() {
		this.runner.run((context) -> assertThat(context.getBean(ExecutorDeliveryScheduler.class).getTurnInterval())
			.isEqualTo(Duration.ofMillis(300)));
		this.runner.withPropertyValues("mcp.notifications.saturated-write-interval=0")
			.run((context) -> assertThat(context.getBean(ExecutorDeliveryScheduler.class).getTurnInterval()).isZero());
		this.runner.withPropertyValues("mcp.notifications.saturated-write-interval=-1ms")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("turn interval must not be negative"));
	}

	@Test
	void serverNameDefaultsToApplicationName() {
		this.runner.withPropertyValues("spring.application.name=shop")
			.run((context) -> assertThat(context.getBean(McpServerInfo.class).name()).isEqualTo("shop"));
	}

	@Test
	void serverVersionDefaultsToBuildVersion() {
		this.runner.withBean(BuildProperties.class, () -> {
			Properties entries = new Properties();
			entries.setProperty("version", "9.8.7");
			return new BuildProperties(entries);
		}).run((context) -> assertThat(context.getBean(McpServerInfo.class).version()).isEqualTo("9.8.7"));
	}

	@Test
	void serverVersionWithoutBuildInfoIsTheApplicationsVersion() {
		// What Spring Boot derives from the main class's jar manifest
		// (Implementation-Version).
		this.runner.withPropertyValues("spring.application.version=2.3.4")
			.run((context) -> assertThat(context.getBean(McpServerInfo.class).version()).isEqualTo("2.3.4"));
	}

	@Test
	void invalidSessionSettingsFailStartup() {
		this.runner.withPropertyValues("mcp.sessions.max=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("session limit"));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserBeans {

		@Bean
		SessionStore customStore() {
			return new InMemorySessionStore();
		}

		@Bean
		SessionIdGenerator customIds() {
			return () -> "fixed";
		}

		@Bean
		McpServerInfo customInfo() {
			return new McpServerInfo("custom", "1", null, null);
		}

	}

}
