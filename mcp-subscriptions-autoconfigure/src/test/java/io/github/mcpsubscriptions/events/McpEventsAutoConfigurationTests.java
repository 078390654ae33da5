package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.github.mcpsubscriptions.autoconfigure.McpEndpointAutoConfiguration;
import io.github.mcpsubscriptions.autoconfigure.McpServerAutoConfiguration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The events' auto-configuration: off by default, on with {@code mcp.events.enabled},
 * backing off without an MCP endpoint, and keeping what the application replaced.
 */
class McpEventsAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class, McpEndpointAutoConfiguration.class,
				McpEventsAutoConfiguration.class));

	@Test
	void offByDefault() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(EventLog.class)
			.doesNotHaveBean(EventMethods.class)
			.doesNotHaveBean(McpEventAccessPolicy.class));
	}

	@Test
	void onWithItsProperty() {
		this.runner.withPropertyValues("mcp.events.enabled=true", "mcp.events.retention-size=7")
			.run((context) -> assertThat(context).hasSingleBean(EventMethods.class)
				.hasSingleBean(EventRecorder.class)
				.hasSingleBean(EventTypeRegistry.class)
				.getBean(EventLog.class)
				.isInstanceOf(InMemoryEventLog.class));
	}

	@Test
	void keepsTheApplicationsLogAndPolicy() {
		EventLog log = new InMemoryEventLog(1, Duration.ofMinutes(1), Clock.systemUTC());
		McpEventAccessPolicy policy = new McpEventAccessPolicy() {
		};
		this.runner.withPropertyValues("mcp.events.enabled=true")
			.withBean(EventLog.class, () -> log)
			.withBean(McpEventAccessPolicy.class, () -> policy)
			.run((context) -> {
				assertThat(context.getBean(EventLog.class)).isSameAs(log);
				assertThat(context.getBean(McpEventAccessPolicy.class)).isSameAs(policy);
			});
	}

	@Test
	void pushComesWithTheExtensionAndItsHeartbeatIsCheckedAtStart() {
		this.runner.withPropertyValues("mcp.events.enabled=true")
			.run((context) -> assertThat(context.getBean(EventStreams.class).heartbeatInterval())
				.isEqualTo(Duration.ofSeconds(20)));
		for (String interval : new String[] { "0s", "31s", "-1s" }) {
			this.runner.withPropertyValues("mcp.events.enabled=true", "mcp.events.push.heartbeat-interval=" + interval)
				.run((context) -> assertThat(context).hasFailed()
					.getFailure()
					.rootCause()
					.hasMessageContaining("mcp.events.push.heartbeat-interval must be more than 0 and at most 30s"));
		}
		this.runner.withPropertyValues("mcp.events.enabled=true", "mcp.events.push.max-streams-per-principal=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("mcp.events.push.max-streams-per-principal must be at least 1"));
	}

	@Test
	void backsOffWithoutAnMcpEndpoint() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class,
					McpEndpointAutoConfiguration.class, McpEventsAutoConfiguration.class))
			.withPropertyValues("mcp.events.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(EventMethods.class));
	}

	@Test
	void webhooksComeWithTheExtensionAndTheirThreadsEndWithTheContext() {
		WebhookSubscriptionStore store = new InMemoryWebhookSubscriptionStore();
		this.runner.withPropertyValues("mcp.events.enabled=true", "mcp.events.webhooks.threads=3")
			.withBean(WebhookSubscriptionStore.class, () -> store)
			.run((context) -> {
				assertThat(context).hasSingleBean(WebhookMethods.class).hasSingleBean(WebhookDelivery.class);
				assertThat(context.getBean(WebhookSubscriptionStore.class)).isSameAs(store);
				assertThat(webhookThreads()).isNotEmpty().allMatch(Thread::isDaemon);
			});
		assertThat(webhookThreads()).as("mcp-webhooks-N threads left after close").isEmpty();
	}

	@Test
	void aSharedWebhookStoreHoldsTheSubscriptionsAndElectsTheDeliveringNode() {
		McpWebhookStore shared = new NoWebhookStore();
		this.runner.withPropertyValues("mcp.events.enabled=true")
			.withBean(McpWebhookStore.class, () -> shared)
			.run((context) -> assertThat(context.getBean(WebhookSubscriptionStore.class))
				.isInstanceOf(SharedWebhookSubscriptionStore.class)
				.extracting("store")
				.isSameAs(shared));
	}

	@Test
	void aLeaseRenewedNoSoonerThanItLapsesFailsTheStart() {
		this.runner
			.withPropertyValues("mcp.events.enabled=true", "mcp.events.webhooks.lease-duration=5s",
					"mcp.events.webhooks.lease-renew-interval=5s")
			.withBean(McpWebhookStore.class, NoWebhookStore::new)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("mcp.events.webhooks.lease-renew-interval (PT5S) must be positive and shorter"));
	}

	@Test
	void anSslBundleThatDoesNotExistFailsTheStart() {
		this.runner.withPropertyValues("mcp.events.enabled=true", "mcp.events.webhooks.ssl-bundle=missing")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void anAllowedNetworkThatIsNotCidrFailsTheStart() {
		this.runner.withPropertyValues("mcp.events.enabled=true", "mcp.events.webhooks.allowed-networks=intranet")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'intranet' is not a CIDR block"));
	}

	private static List<Thread> webhookThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("mcp-webhooks-") && thread.isAlive())
			.toList();
	}

	/** A shared store that holds nothing: what the auto-configuration is wired with. */
	static final class NoWebhookStore implements McpWebhookStore {

		@Override
		public @Nullable Stored get(String id) {
			return null;
		}

		@Override
		public void put(String id, String principalName, @Nullable Principal principal, String data,
				@Nullable Instant expiresAt) {
		}

		@Override
		public boolean remove(String id) {
			return false;
		}

		@Override
		public List<Stored> all(Instant now) {
			return List.of();
		}

		@Override
		public List<Stored> orphans(Instant now) {
			return List.of();
		}

		@Override
		public List<String> removeExpired(Instant now) {
			return List.of();
		}

		@Override
		public int countOf(String principalName, Instant now) {
			return 0;
		}

		@Override
		public boolean isVerified(String principalName, String url, Instant now) {
			return false;
		}

		@Override
		public void verified(String principalName, String url, Instant until) {
		}

		@Override
		public void delivered(String id, String state) {
		}

		@Override
		public boolean lease(String id, Duration duration) {
			return false;
		}

		@Override
		public void release(String id) {
		}

	}

}
