package io.github.mcpsubscriptions.autoconfigure;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.notification.CorrelationMode;
import io.github.mcpsubscriptions.notification.DeliveryScheduler;
import io.github.mcpsubscriptions.notification.ExecutorDeliveryScheduler;
import io.github.mcpsubscriptions.notification.FilteredResourceChangeFeed;
import io.github.mcpsubscriptions.notification.InMemoryResourceChangeFeed;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.PublishedChangeFilter;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.notification.ResourceEventForwarder;
import io.github.mcpsubscriptions.notification.ResourceListChangedEvent;
import io.github.mcpsubscriptions.prompt.PromptAccessPolicy;
import io.github.mcpsubscriptions.prompt.PromptCompleter;
import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.resource.CacheHints;
import io.github.mcpsubscriptions.resource.ResourceCompleter;
import io.github.mcpsubscriptions.resource.ResourceContentMapper;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import io.github.mcpsubscriptions.server.McpServerInfo;
import io.github.mcpsubscriptions.server.SubscriptionLimits;
import io.github.mcpsubscriptions.session.CredentialExpiry;
import io.github.mcpsubscriptions.session.InMemorySessionStore;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.SecureRandomSessionIdGenerator;
import io.github.mcpsubscriptions.session.SessionIdGenerator;
import io.github.mcpsubscriptions.session.SessionListener;
import io.github.mcpsubscriptions.session.SessionStore;
import io.github.mcpsubscriptions.session.SessionStreamHistory;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.subscription.SubscriptionFilter;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import io.github.mcpsubscriptions.subscription.SubscriptionMatcher;
import io.github.mcpsubscriptions.thread.McpThreads;
import io.github.mcpsubscriptions.tool.ToolAccessPolicy;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import io.github.mcpsubscriptions.transport.DnsRebindingFilter;
import io.github.mcpsubscriptions.transport.DnsRebindingProtection;
import io.github.mcpsubscriptions.transport.McpEndpoint;
import io.github.mcpsubscriptions.transport.McpEndpointOptions;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Auto-configuration for the MCP Streamable HTTP endpoint in a Spring MVC application:
 * sessions, subscriptions and the delivery of notifications. The integrations that
 * replace some of its defaults ({@link McpSecurityAutoConfiguration},
 * {@link McpClusterAutoConfiguration}) are ordered before it.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpServerAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(SseEmitter.class)
public final class McpEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SessionStore mcpSessionStore() {
		return new InMemorySessionStore();
	}

	@Bean
	@ConditionalOnMissingBean
	SessionIdGenerator mcpSessionIdGenerator() {
		return new SecureRandomSessionIdGenerator();
	}

	@Bean
	@ConditionalOnMissingBean
	ResourceChangeFeed mcpResourceChangeFeed() {
		return new InMemoryResourceChangeFeed();
	}

	@Bean
	@ConditionalOnMissingBean
	ResourceAccessPolicy mcpResourceAccessPolicy() {
		return ResourceAccessPolicy.PERMIT_ALL;
	}

	@Bean
	@ConditionalOnMissingBean
	ToolAccessPolicy mcpToolAccessPolicy() {
		return ToolAccessPolicy.PERMIT_ALL;
	}

	@Bean
	@ConditionalOnMissingBean
	PromptAccessPolicy mcpPromptAccessPolicy() {
		return PromptAccessPolicy.PERMIT_ALL;
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	DeliveryScheduler mcpDeliveryScheduler(McpProperties properties, Environment environment) {
		McpProperties.Notifications notifications = properties.getNotifications();
		int parallelism = ExecutorDeliveryScheduler.parallelism(notifications.getDeliveryCpuShare(),
				Runtime.getRuntime().availableProcessors());
		// Virtual threads as the application's own executors have them: where
		// spring.threads.virtual.enabled is set, on JDK 21 and later.
		return new ExecutorDeliveryScheduler(notifications.getDeliveryThreads(), parallelism,
				ExecutorDeliveryScheduler.DEFAULT_LEASE, ExecutorDeliveryScheduler.DEFAULT_GATHERING_WINDOW,
				notifications.getSaturatedWriteInterval(), McpThreads.of(Threading.VIRTUAL.isActive(environment)));
	}

	@Bean
	McpThreadsLifecycle mcpThreadsLifecycle(NotificationEngine dispatcher, DeliveryScheduler scheduler,
			ObjectProvider<McpEndpoint> endpoint) {
		// The dispatcher first: it hands work to the scheduler. Then the streams still
		// open
		// (their clients did not take the end): the web server's graceful shutdown would
		// wait
		// for them.
		List<Object> closeables = new ArrayList<>();
		closeables.add(dispatcher);
		endpoint.ifAvailable(closeables::add);
		closeables.add(scheduler);
		return new McpThreadsLifecycle(closeables);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	NotificationEngine mcpNotificationEngine(ResourceChangeFeed feed, ResourceAccessPolicy accessPolicy,
			ObjectProvider<SubscriptionMatcher> matchers, ObjectProvider<SubscriptionFilter> filters,
			DeliveryScheduler scheduler, JsonRpcCodec codec, ResourceRegistry resourceRegistry,
			McpProperties properties) {
		McpProperties.Notifications notifications = properties.getNotifications();
		return NotificationEngine.builder(feed, accessPolicy, codec, scheduler)
			.index(new SubscriptionIndex<>(matchers.orderedStream().toList()))
			.filters(filters.orderedStream().toList())
			.correlation(CorrelationMode.valueOf(properties.getSubscriptions().getCorrelationMode().name()))
			.outboxCapacity(notifications.getOutboxCapacity())
			.detachedOutboxCapacity(notifications.getDetachedOutboxCapacity())
			.minInterval(notifications.getMinInterval(), notifications.getMinIntervalByUri())
			.resources(resourceRegistry)
			.build();
	}

	/**
	 * The registries tell the notification dispatcher of list changes. Wired apart from
	 * the dispatchers' factory methods, so that an application's own dispatcher (or
	 * request dispatcher) is told as well.
	 */
	@Bean
	SmartInitializingSingleton mcpListChangedNotifications(ResourceRegistry resources, ToolRegistry tools,
			PromptRegistry prompts, NotificationEngine dispatcher, McpProperties properties) {
		return () -> {
			resources.addListener(dispatcher::resourceListChanged);
			if (properties.getTools().isEnabled()) {
				tools.addListener(dispatcher::toolListChanged);
			}
			if (properties.getPrompts().isEnabled()) {
				prompts.addListener(dispatcher::promptListChanged);
			}
		};
	}

	@Bean
	@ConditionalOnMissingBean
	McpSessionManager mcpSessionManager(SessionStore store, SessionIdGenerator idGenerator, McpProperties properties,
			ObjectProvider<SessionListener> listeners, NotificationEngine dispatcher,
			ObjectProvider<SessionStreamHistory> history, ObjectProvider<CredentialExpiry> credentialExpiry) {
		McpProperties.Sessions sessions = properties.getSessions();
		McpSessionManager.Settings settings = new McpSessionManager.Settings(sessions.getIdleTimeout(),
				sessions.getMax(), sessions.getReplayLogSize(), properties.getNotifications().getWriteTimeout(),
				sessions.getRetry().isZero() ? null : sessions.getRetry(), sessions.getMaxPerPrincipal());
		McpSessionManager manager = new McpSessionManager(store, idGenerator, Clock.systemUTC(), settings,
				listeners.orderedStream().toList(), dispatcher, history.getIfAvailable());
		manager.setCredentialExpiry(credentialExpiry.getIfAvailable(() -> CredentialExpiry.NONE));
		return manager;
	}

	@Bean
	@ConditionalOnMissingBean
	McpServerInfo mcpServerInfo(McpProperties properties, Environment environment,
			ObjectProvider<BuildProperties> buildProperties) {
		McpProperties.Server server = properties.getServer();
		String name = (server.getName() != null) ? server.getName()
				: environment.getProperty("spring.application.name", "mcp-server");
		String version = server.getVersion();
		if (version == null) {
			BuildProperties build = buildProperties.getIfAvailable();
			// Boot sets spring.application.version from the main class's jar manifest, so
			// a
			// packaged application reports its own version without the build-info goal.
			version = (build != null && build.getVersion() != null) ? build.getVersion()
					: environment.getProperty("spring.application.version", "0.0.0");
		}
		return new McpServerInfo(name, version, server.getTitle(), server.getInstructions());
	}

	@Bean
	@ConditionalOnMissingBean
	McpRequestDispatcher mcpRequestDispatcher(McpServerInfo serverInfo, McpSessionManager sessionManager,
			ResourceRegistry resourceRegistry, ResourceContentMapper contentMapper,
			ObjectProvider<ResourceCompleter> completers, NotificationEngine notifications,
			ResourceAccessPolicy accessPolicy, McpProperties properties, ApplicationEventPublisher events,
			JsonRpcCodec codec, ToolRegistry toolRegistry, ToolAccessPolicy toolAccessPolicy,
			PromptRegistry promptRegistry, PromptAccessPolicy promptAccessPolicy,
			ObjectProvider<PromptCompleter> promptCompleters) {
		McpProperties.Subscriptions subscriptions = properties.getSubscriptions();
		McpProperties.Resources.Cache cache = properties.getResources().getCache();
		return new McpRequestDispatcher(serverInfo, sessionManager, resourceRegistry, contentMapper,
				completers.orderedStream().toList(), properties.getResources().getPageSize(), notifications,
				accessPolicy,
				new SubscriptionLimits(subscriptions.getMaxPerSession(), subscriptions.getMaxTotal(),
						subscriptions.getMaxPerPrincipal()),
				events, codec, new CacheHints(cache.getTtl(), CacheHints.Scope.valueOf(cache.getScope().name())),
				properties.getListen().isEnabled()
						&& properties.getListen().getMode() == McpProperties.Listen.Mode.STREAM,
				// Disabled: none served, whatever is registered.
				properties.getTools().isEnabled() ? toolRegistry : new ToolRegistry(), toolAccessPolicy,
				properties.getTools().getPageSize(),
				properties.getPrompts().isEnabled() ? promptRegistry : new PromptRegistry(), promptAccessPolicy,
				promptCompleters.orderedStream().toList(), properties.getPrompts().getPageSize());
	}

	@Bean
	@ConditionalOnMissingBean
	ListenManager mcpListenManager(NotificationEngine notifications, McpRequestDispatcher requests, JsonRpcCodec codec,
			McpProperties properties, ObjectProvider<CredentialExpiry> credentialExpiry) {
		McpProperties.Listen listen = properties.getListen();
		McpProperties.Subscriptions subscriptions = properties.getSubscriptions();
		ListenManager manager = new ListenManager(notifications, requests, codec, Clock.systemUTC(),
				new ListenManager.Settings(listen.isEnabled(), listen.getMaxStreams(), listen.getMaxDuration(),
						subscriptions.getMaxPerSession(), subscriptions.getMaxTotal(),
						ListenManager.Mode.valueOf(listen.getMode().name()),
						new ListenManager.RateLimit(listen.getRateLimit().getRequests(),
								listen.getRateLimit().getWindow(), listen.getRateLimit().getMaxClients()),
						listen.getMaxStreamsPerPrincipal()));
		manager.setCredentialExpiry(credentialExpiry.getIfAvailable(() -> CredentialExpiry.NONE));
		return manager;
	}

	@Bean
	@ConditionalOnMissingBean
	McpEndpoint mcpEndpoint(McpRequestDispatcher dispatcher, McpSessionManager sessionManager, JsonRpcCodec codec,
			McpProperties properties, ListenManager listenManager, DeliveryScheduler scheduler) {
		McpProperties.Endpoint endpoint = properties.getEndpoint();
		return new McpEndpoint(dispatcher, sessionManager, codec,
				new McpEndpointOptions(endpoint.getMaxRequestSize().toBytes(), endpoint.isDnsRebindingProtection(),
						endpoint.getAllowedOrigins(), endpoint.getAllowedHosts(), endpoint.getHeartbeatInterval()),
				listenManager, scheduler, properties.getNotifications().getWriteTimeout());
	}

	@Bean
	@ConditionalOnMissingBean(name = "mcpDnsRebindingFilter")
	@ConditionalOnBooleanProperty(name = "mcp.endpoint.dns-rebinding-protection", matchIfMissing = true)
	@Conditional(OnProtectedPathsCondition.class)
	FilterRegistrationBean<DnsRebindingFilter> mcpDnsRebindingFilter(McpProperties properties, JsonRpcCodec codec) {
		McpProperties.Endpoint endpoint = properties.getEndpoint();
		DnsRebindingFilter filter = new DnsRebindingFilter(
				new DnsRebindingProtection(true, endpoint.getAllowedOrigins(), endpoint.getAllowedHosts()), codec);
		FilterRegistrationBean<DnsRebindingFilter> registration = new FilterRegistrationBean<>(filter);
		// Registered only with patterns: none would mean every path.
		registration.setUrlPatterns(endpoint.getProtectedPaths());
		// Before security and the rest: a rebound request is refused before anything
		// runs.
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
		return registration;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.transaction.event.TransactionalEventListener")
	static class TransactionalEventsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ResourceEventForwarder mcpResourceEventForwarder(ResourceChangeFeed feed, NotificationEngine dispatcher,
				ObjectProvider<PublishedChangeFilter> filters) {
			return new ResourceEventForwarder(filtered(feed, filters), dispatcher);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.transaction.event.TransactionalEventListener")
	static class PlainEventsConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "mcpResourceChangedEventListener")
		ApplicationListener<ResourceChangedEvent> mcpResourceChangedEventListener(ResourceChangeFeed feed,
				ObjectProvider<PublishedChangeFilter> filters) {
			ResourceChangeFeed filtered = filtered(feed, filters);
			return (event) -> filtered.publish(ResourceChange.of(event));
		}

		@Bean
		@ConditionalOnMissingBean(name = "mcpResourceListChangedEventListener")
		ApplicationListener<ResourceListChangedEvent> mcpResourceListChangedEventListener(ResourceChangeFeed feed,
				NotificationEngine dispatcher) {
			return (event) -> feed.publishResourceListChanged(dispatcher::resourceListChanged);
		}

	}

	/**
	 * The feed as the application's publishers see it: the filters (the database
	 * capture's, which is the only source of its tables' resources) are looked up at the
	 * first change, as they may depend on beans created later.
	 */
	static ResourceChangeFeed filtered(ResourceChangeFeed feed, ObjectProvider<PublishedChangeFilter> filters) {
		return new FilteredResourceChangeFeed(feed, SingletonSupplier.of(() -> filters.orderedStream().toList()));
	}

}
