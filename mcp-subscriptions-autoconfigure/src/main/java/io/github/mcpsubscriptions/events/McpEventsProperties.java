package io.github.mcpsubscriptions.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the MCP Events extension ({@code mcp.events.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("mcp.events")
public class McpEventsProperties {

	/**
	 * Whether the Events extension (draft SEP-3415: poll, push and webhook delivery) is
	 * offered to 2026-07-28 clients; off by default while the extension is a draft.
	 */
	private boolean enabled;

	/**
	 * How many recorded events the event log (in memory, or the cluster's in Redis)
	 * retains at most: the replay window of a cursor.
	 */
	private int retentionSize = 10_000;

	/**
	 * How long the event log (in memory, or the cluster's in Redis) retains an event at
	 * most.
	 */
	private Duration retentionAge = Duration.ofHours(1);

	/**
	 * The delay before the next poll that events/poll results recommend (nextPollMs).
	 */
	private Duration pollInterval = Duration.ofSeconds(5);

	/**
	 * How many events one events/poll returns at most, and when the client names no
	 * maxEvents; a larger maxEvents is clamped to it.
	 */
	private int maxEventsPerPoll = 100;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getRetentionSize() {
		return this.retentionSize;
	}

	public void setRetentionSize(int retentionSize) {
		this.retentionSize = retentionSize;
	}

	public Duration getRetentionAge() {
		return this.retentionAge;
	}

	public void setRetentionAge(Duration retentionAge) {
		this.retentionAge = retentionAge;
	}

	public Duration getPollInterval() {
		return this.pollInterval;
	}

	public void setPollInterval(Duration pollInterval) {
		this.pollInterval = pollInterval;
	}

	public int getMaxEventsPerPoll() {
		return this.maxEventsPerPoll;
	}

	public void setMaxEventsPerPoll(int maxEventsPerPoll) {
		this.maxEventsPerPoll = maxEventsPerPoll;
	}

	/**
	 * Webhook delivery (events/subscribe).
	 */
	private final Webhooks webhooks = new Webhooks();

	public Webhooks getWebhooks() {
		return this.webhooks;
	}

	/**
	 * Push delivery (events/stream).
	 */
	private final Push push = new Push();

	public Push getPush() {
		return this.push;
	}

	/**
	 * Push delivery: the streams of events/stream.
	 */
	public static class Push {

		/**
		 * How often each push stream gets a heartbeat carrying its cursor, whether or not
		 * events flow; more than 0 and at most 30s.
		 */
		private Duration heartbeatInterval = Duration.ofSeconds(20);

		/**
		 * How often the event log is read for the events of push streams.
		 */
		private Duration scanInterval = Duration.ofMillis(100);

		/**
		 * How many push streams one authenticated principal may hold open on a node;
		 * anonymous streams are not counted.
		 */
		private int maxStreamsPerPrincipal = 100;

		public Duration getHeartbeatInterval() {
			return this.heartbeatInterval;
		}

		public void setHeartbeatInterval(Duration heartbeatInterval) {
			this.heartbeatInterval = heartbeatInterval;
		}

		public Duration getScanInterval() {
			return this.scanInterval;
		}

		public void setScanInterval(Duration scanInterval) {
			this.scanInterval = scanInterval;
		}

		public int getMaxStreamsPerPrincipal() {
			return this.maxStreamsPerPrincipal;
		}

		public void setMaxStreamsPerPrincipal(int maxStreamsPerPrincipal) {
			this.maxStreamsPerPrincipal = maxStreamsPerPrincipal;
		}

	}

	/**
	 * Webhook delivery: subscriptions, signed POSTs, retries and callback safety.
	 */
	public static class Webhooks {

		/**
		 * Networks (CIDR blocks, IPv4 or IPv6) callbacks may resolve to besides the
		 * globally routable ones, such as 127.0.0.0/8 for a receiver on loopback.
		 */
		private List<String> allowedNetworks = new ArrayList<>();

		/**
		 * The SSL bundle whose trust material verifies callback servers; the JDK's trust
		 * when not set.
		 */
		private @Nullable String sslBundle;

		/**
		 * The TTL granted when a subscribe names no ttlMs.
		 */
		private Duration defaultTtl = Duration.ofHours(1);

		/**
		 * The longest TTL granted: longer suggestions, and requests for no expiry, are
		 * clamped to it.
		 */
		private Duration maxTtl = Duration.ofHours(24);

		/**
		 * The shortest TTL granted: shorter suggestions are raised to it.
		 */
		private Duration minTtl = Duration.ofMinutes(1);

		/**
		 * How long to wait for a callback to connect and to answer.
		 */
		private Duration timeout = Duration.ofSeconds(5);

		/**
		 * How many times a delivery is attempted at most before it is abandoned.
		 */
		private int maxAttempts = 5;

		/**
		 * How long retries of one delivery go on at most before it is abandoned.
		 */
		private Duration retryWindow = Duration.ofMinutes(15);

		/**
		 * The delay before the first retry; each further retry waits twice as long.
		 */
		private Duration initialBackoff = Duration.ofSeconds(1);

		/**
		 * The longest delay between two retries.
		 */
		private Duration maxBackoff = Duration.ofMinutes(5);

		/**
		 * After how many deliveries abandoned in a row a subscription is suspended, until
		 * the client refreshes it.
		 */
		private int suspendAfter = 10;

		/**
		 * How long a verified endpoint stays verified for the principal's subscriptions
		 * to its URL.
		 */
		private Duration verificationTtl = Duration.ofHours(24);

		/**
		 * How long deliveries are signed with a replaced secret too, after a refresh
		 * replaced it.
		 */
		private Duration secretGracePeriod = Duration.ofMinutes(5);

		/**
		 * How many webhook subscriptions one principal may hold.
		 */
		private int maxSubscriptionsPerPrincipal = 100;

		/**
		 * How many threads post webhooks (mcp-webhooks-N).
		 */
		private int threads = 2;

		/**
		 * How often the event log is read for events to deliver.
		 */
		private Duration scanInterval = Duration.ofMillis(100);

		/**
		 * Webhook deliveries waiting on this node above which the mcpEvents health
		 * indicator reports down.
		 */
		private int healthMaxBacklog = 10_000;

		/**
		 * In a cluster, how long a node's lease on delivering a subscription holds unless
		 * renewed.
		 */
		private Duration leaseDuration = Duration.ofSeconds(10);

		/**
		 * In a cluster, how often a node renews its leases and looks for subscriptions no
		 * node delivers.
		 */
		private Duration leaseRenewInterval = Duration.ofSeconds(2);

		public List<String> getAllowedNetworks() {
			return this.allowedNetworks;
		}

		public void setAllowedNetworks(List<String> allowedNetworks) {
			this.allowedNetworks = allowedNetworks;
		}

		public @Nullable String getSslBundle() {
			return this.sslBundle;
		}

		public void setSslBundle(@Nullable String sslBundle) {
			this.sslBundle = sslBundle;
		}

		public Duration getDefaultTtl() {
			return this.defaultTtl;
		}

		public void setDefaultTtl(Duration defaultTtl) {
			this.defaultTtl = defaultTtl;
		}

		public Duration getMaxTtl() {
			return this.maxTtl;
		}

		public void setMaxTtl(Duration maxTtl) {
			this.maxTtl = maxTtl;
		}

		public Duration getMinTtl() {
			return this.minTtl;
		}

		public void setMinTtl(Duration minTtl) {
			this.minTtl = minTtl;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public int getMaxAttempts() {
			return this.maxAttempts;
		}

		public void setMaxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public Duration getRetryWindow() {
			return this.retryWindow;
		}

		public void setRetryWindow(Duration retryWindow) {
			this.retryWindow = retryWindow;
		}

		public Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public int getSuspendAfter() {
			return this.suspendAfter;
		}

		public void setSuspendAfter(int suspendAfter) {
			this.suspendAfter = suspendAfter;
		}

		public Duration getVerificationTtl() {
			return this.verificationTtl;
		}

		public void setVerificationTtl(Duration verificationTtl) {
			this.verificationTtl = verificationTtl;
		}

		public Duration getSecretGracePeriod() {
			return this.secretGracePeriod;
		}

		public void setSecretGracePeriod(Duration secretGracePeriod) {
			this.secretGracePeriod = secretGracePeriod;
		}

		public int getMaxSubscriptionsPerPrincipal() {
			return this.maxSubscriptionsPerPrincipal;
		}

		public void setMaxSubscriptionsPerPrincipal(int maxSubscriptionsPerPrincipal) {
			this.maxSubscriptionsPerPrincipal = maxSubscriptionsPerPrincipal;
		}

		public int getThreads() {
			return this.threads;
		}

		public void setThreads(int threads) {
			this.threads = threads;
		}

		public Duration getScanInterval() {
			return this.scanInterval;
		}

		public void setScanInterval(Duration scanInterval) {
			this.scanInterval = scanInterval;
		}

		public int getHealthMaxBacklog() {
			return this.healthMaxBacklog;
		}

		public void setHealthMaxBacklog(int healthMaxBacklog) {
			this.healthMaxBacklog = healthMaxBacklog;
		}

		public Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		public Duration getLeaseRenewInterval() {
			return this.leaseRenewInterval;
		}

		public void setLeaseRenewInterval(Duration leaseRenewInterval) {
			this.leaseRenewInterval = leaseRenewInterval;
		}

	}

}
