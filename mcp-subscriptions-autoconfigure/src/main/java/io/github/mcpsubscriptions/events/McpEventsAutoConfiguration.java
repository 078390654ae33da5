package io.github.mcpsubscriptions.events;

import java.time.Clock;
import java.util.List;

import javax.net.ssl.SSLContext;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.notification.DeliveryScheduler;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangeFeed;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the MCP Events extension (draft SEP-3415): the event types
 * declared with {@link McpEvent} in the application's packages, the event log (in memory,
 * or in a {@link McpEventStore} such as the cluster's Redis), {@code events/list} and
 * {@code events/poll} on the MCP endpoint, and webhooks (their subscriptions in memory,
 * or in a {@link McpWebhookStore} such as the cluster's Redis). Off unless
 * {@code mcp.events.enabled}; then the methods answer {@code -32601}, as the draft asks
 * of a server without the extension.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "io.github.mcpsubscriptions.autoconfigure.McpEndpointAutoConfiguration",
		"io.github.mcpsubscriptions.autoconfigure.McpClusterAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "mcp.events.enabled")
@ConditionalOnBean(McpRequestDispatcher.class)
@EnableConfigurationProperties(McpEventsProperties.class)
public final class McpEventsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpEventAccessPolicy mcpEventAccessPolicy() {
		return McpEventAccessPolicy.PERMIT_ALL;
	}

	@Bean
	@ConditionalOnMissingBean
	EventTypeRegistry mcpEventTypeRegistry(BeanFactory beanFactory, ObjectProvider<ResourceChangeFeed> feed) {
		List<String> packages = AutoConfigurationPackages.has(beanFactory) ? AutoConfigurationPackages.get(beanFactory)
				: List.of();
		EventTypeRegistry scanned = EventTypeRegistry.scan(packages, beanFactory.getClass().getClassLoader());
		// resource.updated, where there are resource changes to record.
		return (feed.getIfAvailable() != null) ? scanned.with(ResourceUpdated.TYPE) : scanned;
	}

	@Bean
	@ConditionalOnMissingBean
	EventLog mcpEventLog(McpEventsProperties properties, ObjectProvider<McpEventStore> store, EventTypeRegistry types,
			JsonRpcCodec codec) {
		// A shared store (the cluster's) when there is one: cursors then hold across
		// nodes and restarts.
		McpEventStore shared = store.getIfUnique();
		if (shared != null) {
			return new StoredEventLog(shared, types, codec, Clock.systemUTC());
		}
		return new InMemoryEventLog(properties.getRetentionSize(), properties.getRetentionAge(), Clock.systemUTC());
	}

	@Bean
	EventStats mcpEventStats() {
		return new EventStats();
	}

	@Bean
	EventRecorder mcpEventRecorder(EventTypeRegistry types, EventLog log, JsonRpcCodec codec, EventStats stats) {
		return new EventRecorder(types, log, codec, stats);
	}

	@Bean
	@ConditionalOnBean(ResourceChangeFeed.class)
	ResourceUpdatedRecorder mcpResourceUpdatedRecorder(ResourceChangeFeed feed, EventTypeRegistry types, EventLog log,
			JsonRpcCodec codec, EventStats stats) {
		return new ResourceUpdatedRecorder(feed, log, codec, stats);
	}

	@Bean
	EventMethods mcpEventMethods(EventTypeRegistry types, EventLog log, McpEventAccessPolicy policy, JsonRpcCodec codec,
			McpEventsProperties properties, McpRequestDispatcher dispatcher,
			ObjectProvider<ResourceAccessPolicy> resourcePolicy, EventStats stats) {
		// resource.updated is authorized as resource subscriptions and reads are.
		McpEventAccessPolicy judged = new ResourceEventPolicy(policy,
				resourcePolicy.getIfAvailable(() -> ResourceAccessPolicy.PERMIT_ALL));
		EventMethods methods = new EventMethods(types, log, judged, codec, properties.getMaxEventsPerPoll(),
				properties.getPollInterval(), 100, stats);
		methods.register(dispatcher);
		return methods;
	}

	@Bean
	EventStreams mcpEventStreams(EventMethods methods, DeliveryScheduler scheduler, McpEventsProperties properties,
			McpRequestDispatcher dispatcher) {
		McpEventsProperties.Push push = properties.getPush();
		EventStreams streams = new EventStreams(methods, scheduler, push.getHeartbeatInterval(), push.getScanInterval(),
				push.getMaxStreamsPerPrincipal());
		streams.register(dispatcher);
		return streams;
	}

	/**
	 * Event types that come and go at run time: {@code notifications/events/list_changed}
	 * to the listen streams that asked, and the subscriptions of a removed type ended.
	 * Wired apart from the registry's factory method, so that an application's own
	 * registry is followed as well.
	 */
	@Bean
	SmartInitializingSingleton mcpEventTypeChanges(EventTypeRegistry types, EventStreams streams,
			WebhookDelivery webhooks, ObjectProvider<NotificationEngine> notifications,
			McpRequestDispatcher dispatcher) {
		return () -> types.addListener((type, removed) -> {
			if (removed) {
				streams.typeRemoved(type.name());
				webhooks.typeRemoved(type.name());
			}
			NotificationEngine engine = notifications.getIfAvailable();
			if (engine != null && dispatcher.isListenEnabled()) {
				engine.extensionListChanged(EventsWire.LIST_CHANGED);
			}
		});
	}

	@Bean
	@ConditionalOnMissingBean
	WebhookSubscriptionStore mcpWebhookSubscriptionStore(ObjectProvider<McpWebhookStore> store, JsonRpcCodec codec,
			McpEventsProperties properties) {
		// A shared store (the cluster's) when there is one: subscriptions then survive
		// restarts, and one node delivers each.
		McpWebhookStore shared = store.getIfUnique();
		if (shared != null) {
			McpEventsProperties.Webhooks webhooks = properties.getWebhooks();
			return new SharedWebhookSubscriptionStore(shared, codec, webhooks.getLeaseDuration(),
					webhooks.getLeaseRenewInterval());
		}
		return new InMemoryWebhookSubscriptionStore();
	}

	@Bean
	WebhookStats mcpWebhookStats() {
		return new WebhookStats();
	}

	@Bean
	WebhookHttp mcpWebhookHttp(McpEventsProperties properties, ObjectProvider<SslBundles> sslBundles) {
		McpEventsProperties.Webhooks webhooks = properties.getWebhooks();
		SSLContext sslContext = null;
		if (webhooks.getSslBundle() != null) {
			SslBundles bundles = sslBundles.getIfAvailable();
			if (bundles == null) {
				throw new IllegalStateException("mcp.events.webhooks.ssl-bundle names the SSL bundle '"
						+ webhooks.getSslBundle() + "', but the application has no SSL bundles");
			}
			sslContext = bundles.getBundle(webhooks.getSslBundle()).createSslContext();
		}
		return new WebhookHttp(new CallbackAddresses(webhooks.getAllowedNetworks()), sslContext, webhooks.getTimeout());
	}

	@Bean
	WebhookDelivery mcpWebhookDelivery(EventTypeRegistry types, EventLog log, McpEventAccessPolicy policy,
			JsonRpcCodec codec, WebhookSubscriptionStore store, WebhookHttp http, WebhookStats stats,
			McpEventsProperties properties) {
		McpEventsProperties.Webhooks webhooks = properties.getWebhooks();
		WebhookDelivery.Retries retries = new WebhookDelivery.Retries(webhooks.getMaxAttempts(),
				webhooks.getRetryWindow(), webhooks.getInitialBackoff(), webhooks.getMaxBackoff(),
				webhooks.getSuspendAfter());
		WebhookDelivery delivery = new WebhookDelivery(types, log, policy, codec, store, http, stats, retries,
				Clock.systemUTC(), WebhookThreads.executor(webhooks.getThreads()));
		delivery.takeOver(webhooks.getLeaseRenewInterval(), webhooks.getLeaseDuration());
		delivery.start(webhooks.getScanInterval());
		return delivery;
	}

	/**
	 * Gives up this node's webhook leases as the application stops, before the connection
	 * to a shared store closes (a later phase), so that another node takes over at once
	 * rather than after the leases lapse.
	 */
	@Bean
	SmartLifecycle mcpWebhookDeliveryLifecycle(WebhookDelivery delivery) {
		return new SmartLifecycle() {

			private volatile boolean running = true;

			@Override
			public void start() {
				delivery.startDelivering();
				this.running = true;
			}

			@Override
			public void stop() {
				delivery.stopDelivering();
				this.running = false;
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

		};
	}

	@Bean
	WebhookMethods mcpWebhookMethods(EventTypeRegistry types, McpEventAccessPolicy policy, JsonRpcCodec codec,
			WebhookSubscriptionStore store, WebhookDelivery delivery, WebhookStats stats, EventLog log,
			McpEventsProperties properties, McpRequestDispatcher dispatcher) {
		McpEventsProperties.Webhooks webhooks = properties.getWebhooks();
		WebhookMethods.Settings settings = new WebhookMethods.Settings(webhooks.getDefaultTtl(), webhooks.getMinTtl(),
				webhooks.getMaxTtl(), webhooks.getVerificationTtl(), webhooks.getSecretGracePeriod(),
				webhooks.getMaxSubscriptionsPerPrincipal(), Clock.systemUTC());
		WebhookMethods methods = new WebhookMethods(types, policy, codec, store, delivery,
				new CallbackAddresses(webhooks.getAllowedNetworks()), stats, log, settings);
		methods.register(dispatcher);
		return methods;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
	static class WebhookMetricsConfiguration {

		@Bean
		WebhookMeterBinder mcpWebhookMeterBinder(WebhookStats stats, WebhookDelivery delivery,
				WebhookSubscriptionStore store, EventLog log) {
			return new WebhookMeterBinder(stats, delivery, store, log);
		}

		@Bean
		EventMeterBinder mcpEventMeterBinder(EventStats stats, WebhookStats webhooks, EventTypeRegistry types) {
			return new EventMeterBinder(stats, webhooks, types);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
	static class EventsHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "mcpEventsHealthIndicator")
		EventsHealthIndicator mcpEventsHealthIndicator(WebhookDelivery delivery, WebhookSubscriptionStore store,
				EventLog log, EventStats stats, McpEventsProperties properties) {
			return new EventsHealthIndicator(delivery, store, log, stats,
					properties.getWebhooks().getHealthMaxBacklog());
		}

	}

}
