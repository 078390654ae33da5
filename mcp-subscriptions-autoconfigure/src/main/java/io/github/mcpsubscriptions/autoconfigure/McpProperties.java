package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties for the MCP server and its endpoint. Each integration has its
 * own: {@link McpSecurityProperties}, {@link McpClusterProperties},
 * {@link McpCaptureProperties}, {@link McpJpaProperties} and
 * {@link McpManagementProperties}.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("mcp")
public class McpProperties {

	/**
	 * Whether the MCP server is enabled.
	 */
	private boolean enabled = true;

	private final Server server = new Server();

	private final Endpoint endpoint = new Endpoint();

	private final Sessions sessions = new Sessions();

	private final Resources resources = new Resources();

	private final Tools tools = new Tools();

	private final Prompts prompts = new Prompts();

	private final Subscriptions subscriptions = new Subscriptions();

	private final Notifications notifications = new Notifications();

	private final Listen listen = new Listen();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Server getServer() {
		return this.server;
	}

	public Endpoint getEndpoint() {
		return this.endpoint;
	}

	public Sessions getSessions() {
		return this.sessions;
	}

	public Resources getResources() {
		return this.resources;
	}

	public Tools getTools() {
		return this.tools;
	}

	public Prompts getPrompts() {
		return this.prompts;
	}

	public Subscriptions getSubscriptions() {
		return this.subscriptions;
	}

	public Notifications getNotifications() {
		return this.notifications;
	}

	public Listen getListen() {
		return this.listen;
	}

	/**
	 * The {@code mcp.listen.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class Listen {

		/**
		 * Whether 2026-era clients may open subscriptions/listen streams. Turn off where
		 * long-lived responses cannot be served (serverless platforms).
		 */
		private boolean enabled = true;

		/**
		 * Maximum number of listen streams open at once on this node; as many as sessions
		 * by default, each one an open connection (see docs/sizing.md).
		 */
		private int maxStreams = 10000;

		/**
		 * Maximum number of listen streams of one authenticated principal open at once on
		 * this node; 0 for no limit. Anonymous callers are not counted by it.
		 */
		private int maxStreamsPerPrincipal = 0;

		/**
		 * How long a listen stream lasts before the server completes it gracefully
		 * (looked for every sixtieth of it, at most every 15 s, so a stream may last that
		 * much longer); zero for no limit.
		 */
		private Duration maxDuration = Duration.ofHours(1);

		/**
		 * How listen requests are answered: 'stream' holds the response open for
		 * notifications; 'complete-immediately' acknowledges an empty filter and
		 * completes at once, for hosts that cannot hold a response open.
		 */
		private Mode mode = Mode.STREAM;

		private final RateLimit rateLimit = new RateLimit();

		public Mode getMode() {
			return this.mode;
		}

		public void setMode(Mode mode) {
			this.mode = mode;
		}

		public RateLimit getRateLimit() {
			return this.rateLimit;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getMaxStreams() {
			return this.maxStreams;
		}

		public int getMaxStreamsPerPrincipal() {
			return this.maxStreamsPerPrincipal;
		}

		public void setMaxStreamsPerPrincipal(int maxStreamsPerPrincipal) {
			this.maxStreamsPerPrincipal = maxStreamsPerPrincipal;
		}

		public void setMaxStreams(int maxStreams) {
			this.maxStreams = maxStreams;
		}

		public Duration getMaxDuration() {
			return this.maxDuration;
		}

		public void setMaxDuration(Duration maxDuration) {
			this.maxDuration = maxDuration;
		}

		/**
		 * The {@code mcp.listen.rate-limit.*} properties.
		 *
		 * @since 0.1.0
		 */
		public static class RateLimit {

			/**
			 * Maximum number of listen requests of one client (its principal, else its
			 * address) in a burst and per window; past it 429 with Retry-After. Zero for
			 * no limit.
			 */
			private int requests = 60;

			/**
			 * The window in which a client's listen requests are counted.
			 */
			private Duration window = Duration.ofMinutes(1);

			/**
			 * Maximum number of clients whose listen rate is tracked at once (the least
			 * recently seen are forgotten).
			 */
			private int maxClients = 10_000;

			public int getRequests() {
				return this.requests;
			}

			public void setRequests(int requests) {
				this.requests = requests;
			}

			public Duration getWindow() {
				return this.window;
			}

			public void setWindow(Duration window) {
				this.window = window;
			}

			public int getMaxClients() {
				return this.maxClients;
			}

			public void setMaxClients(int maxClients) {
				this.maxClients = maxClients;
			}

		}

		/**
		 * How listen requests are answered.
		 *
		 * @since 0.1.0
		 */
		public enum Mode {

			/** The response is a stream that carries notifications until it ends. */
			STREAM,

			/** The response acknowledges an empty filter and completes at once. */
			COMPLETE_IMMEDIATELY

		}

	}

	/**
	 * The {@code mcp.subscriptions.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class Subscriptions {

		/**
		 * Maximum number of subscriptions of one session or listen stream.
		 */
		private int maxPerSession = 100;

		/**
		 * Maximum number of subscriptions the server holds in all.
		 */
		private int maxTotal = 100_000;

		/**
		 * Maximum number of subscriptions of one authenticated principal over its
		 * sessions and listen streams; 0 for no limit. Anonymous callers are not counted
		 * by it.
		 */
		private int maxPerPrincipal = 0;

		/**
		 * Which clients get one notification per matching subscription, each naming it in
		 * 'subscribedUri': 'auto' (those declaring the correlation capability; the others
		 * get one per change), 'always' or 'never' (one per change, without
		 * 'subscribedUri').
		 */
		private CorrelationMode correlationMode = CorrelationMode.AUTO;

		public int getMaxPerSession() {
			return this.maxPerSession;
		}

		public void setMaxPerSession(int maxPerSession) {
			this.maxPerSession = maxPerSession;
		}

		public int getMaxTotal() {
			return this.maxTotal;
		}

		public void setMaxTotal(int maxTotal) {
			this.maxTotal = maxTotal;
		}

		public int getMaxPerPrincipal() {
			return this.maxPerPrincipal;
		}

		public void setMaxPerPrincipal(int maxPerPrincipal) {
			this.maxPerPrincipal = maxPerPrincipal;
		}

		public CorrelationMode getCorrelationMode() {
			return this.correlationMode;
		}

		public void setCorrelationMode(CorrelationMode correlationMode) {
			this.correlationMode = correlationMode;
		}

		/**
		 * Which clients get one notification per matching subscription.
		 *
		 * @since 0.1.0
		 */
		public enum CorrelationMode {

			/** Those declaring the correlation capability; the others one per change. */
			AUTO,

			/** Every client. */
			ALWAYS,

			/** None: one notification per change, without 'subscribedUri'. */
			NEVER

		}

	}

	/**
	 * The {@code mcp.notifications.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class Notifications {

		/**
		 * Minimum interval between two notifications of one subscription; later ones are
		 * delayed, never dropped. Zero for no limit.
		 */
		private Duration minInterval = Duration.ZERO;

		/**
		 * Minimum intervals by subscribed-URI pattern ('*' matches anything), overriding
		 * 'min-interval'.
		 */
		private Map<String, Duration> minIntervalByUri = new LinkedHashMap<>();

		/**
		 * Maximum number of notifications waiting for one subscriber; past it the
		 * subscriber's stream is closed and it is told to resync.
		 */
		private int outboxCapacity = 1000;

		/**
		 * Maximum number of notifications waiting for a session that has no open stream
		 * (at most 'outbox-capacity'); past it they become one resync per subscription.
		 */
		private int detachedOutboxCapacity = 100;

		/**
		 * Size of the pool of platform threads that deliver notifications, unused where
		 * 'spring.threads.virtual.enabled' puts delivery on virtual threads (JDK 21+).
		 */
		private int deliveryThreads = 16;

		/**
		 * Share of the available processors that notification delivery may keep busy at
		 * once (at least one writer), so that request threads keep the rest under load.
		 */
		private double deliveryCpuShare = 0.5;

		/**
		 * How long, at least, a stream's writer waits between two turns while delivery is
		 * saturated: what arrives for the stream meanwhile shares its next write; once
		 * nothing new has arrived for 50 ms the turn is taken anyway; 0 never holds a
		 * turn back.
		 */
		private Duration saturatedWriteInterval = Duration.ofMillis(300);

		/**
		 * How long a client may leave a write untaken before it is taken to have stopped
		 * reading: its stream is closed and it is told to resync when it returns. Also
		 * how long a closing stream waits for its client to take the end.
		 */
		private Duration writeTimeout = Duration.ofSeconds(10);

		public Duration getWriteTimeout() {
			return this.writeTimeout;
		}

		public void setWriteTimeout(Duration writeTimeout) {
			this.writeTimeout = writeTimeout;
		}

		public Duration getMinInterval() {
			return this.minInterval;
		}

		public void setMinInterval(Duration minInterval) {
			this.minInterval = minInterval;
		}

		public Map<String, Duration> getMinIntervalByUri() {
			return this.minIntervalByUri;
		}

		public void setMinIntervalByUri(Map<String, Duration> minIntervalByUri) {
			this.minIntervalByUri = minIntervalByUri;
		}

		public int getOutboxCapacity() {
			return this.outboxCapacity;
		}

		public void setOutboxCapacity(int outboxCapacity) {
			this.outboxCapacity = outboxCapacity;
		}

		public int getDetachedOutboxCapacity() {
			return this.detachedOutboxCapacity;
		}

		public void setDetachedOutboxCapacity(int detachedOutboxCapacity) {
			this.detachedOutboxCapacity = detachedOutboxCapacity;
		}

		public int getDeliveryThreads() {
			return this.deliveryThreads;
		}

		public void setDeliveryThreads(int deliveryThreads) {
			this.deliveryThreads = deliveryThreads;
		}

		public Duration getSaturatedWriteInterval() {
			return this.saturatedWriteInterval;
		}

		public void setSaturatedWriteInterval(Duration saturatedWriteInterval) {
			this.saturatedWriteInterval = saturatedWriteInterval;
		}

		public double getDeliveryCpuShare() {
			return this.deliveryCpuShare;
		}

		public void setDeliveryCpuShare(double deliveryCpuShare) {
			this.deliveryCpuShare = deliveryCpuShare;
		}

	}

	/**
	 * The {@code mcp.tools.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class Tools {

		/**
		 * Whether tools (Spring AI tools and those registered with the ToolRegistry) are
		 * served.
		 */
		private boolean enabled = true;

		/**
		 * Most entries in one page of tools/list.
		 */
		private int pageSize = 100;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getPageSize() {
			return this.pageSize;
		}

		public void setPageSize(int pageSize) {
			this.pageSize = pageSize;
		}

	}

	/**
	 * The {@code mcp.prompts.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class Prompts {

		/**
		 * Whether prompts (@McpPrompt methods and those registered with the
		 * PromptRegistry) are served.
		 */
		private boolean enabled = true;

		/**
		 * Most entries in one page of prompts/list.
		 */
		private int pageSize = 100;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getPageSize() {
			return this.pageSize;
		}

		public void setPageSize(int pageSize) {
			this.pageSize = pageSize;
		}

	}

	/**
	 * The {@code mcp.resources.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class Resources {

		/**
		 * Most entries in one page of resources/list and resources/templates/list.
		 */
		private int pageSize = 100;

		private final Cache cache = new Cache();

		public Cache getCache() {
			return this.cache;
		}

		/**
		 * The {@code mcp.resources.cache.*} properties.
		 *
		 * @since 0.1.0
		 */
		public static class Cache {

			/**
			 * How long 2026-era clients may cache list, read and discover results unless
			 * a resource says otherwise; zero means immediately stale.
			 */
			private Duration ttl = Duration.ZERO;

			/**
			 * Who may reuse cached results unless a resource says otherwise: 'private'
			 * (the same authorization context) or 'public'.
			 */
			private Scope scope = Scope.PRIVATE;

			public Duration getTtl() {
				return this.ttl;
			}

			public void setTtl(Duration ttl) {
				this.ttl = ttl;
			}

			public Scope getScope() {
				return this.scope;
			}

			public void setScope(Scope scope) {
				this.scope = scope;
			}

			/**
			 * Who may reuse cached results.
			 *
			 * @since 0.1.0
			 */
			public enum Scope {

				/** Anyone: the results hold no user-specific data. */
				PUBLIC,

				/** Only the same authorization context. */
				PRIVATE

			}

		}

		public int getPageSize() {
			return this.pageSize;
		}

		public void setPageSize(int pageSize) {
			this.pageSize = pageSize;
		}

	}

	/**
	 * The {@code mcp.server.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class Server {

		/**
		 * Name the server reports to clients. Defaults to 'spring.application.name', or
		 * 'mcp-server'.
		 */
		private @Nullable String name;

		/**
		 * Version the server reports to clients. Defaults to the application's build
		 * version, if known.
		 */
		private @Nullable String version;

		/**
		 * Human-readable title the server reports to clients.
		 */
		private @Nullable String title;

		/**
		 * Instructions on how to use the server, which clients may add to a model's
		 * prompt.
		 */
		private @Nullable String instructions;

		public @Nullable String getName() {
			return this.name;
		}

		public void setName(@Nullable String name) {
			this.name = name;
		}

		public @Nullable String getVersion() {
			return this.version;
		}

		public void setVersion(@Nullable String version) {
			this.version = version;
		}

		public @Nullable String getTitle() {
			return this.title;
		}

		public void setTitle(@Nullable String title) {
			this.title = title;
		}

		public @Nullable String getInstructions() {
			return this.instructions;
		}

		public void setInstructions(@Nullable String instructions) {
			this.instructions = instructions;
		}

	}

	/**
	 * The {@code mcp.endpoint.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class Endpoint {

		/**
		 * Path of the MCP endpoint.
		 */
		private String path = "/mcp";

		/**
		 * Whether requests with a foreign Origin or Host header are refused with 403
		 * (protection against DNS rebinding).
		 */
		private boolean dnsRebindingProtection = true;

		/**
		 * Origins accepted besides the loopback ones, as CORS origin patterns such as
		 * 'https://*.example.com' or 'http://localhost:[*]'.
		 */
		private List<String> allowedOrigins = new ArrayList<>();

		/**
		 * Host names accepted besides the loopback ones. When empty, requests that arrive
		 * on a non-loopback address are accepted with any Host.
		 */
		private List<String> allowedHosts = new ArrayList<>();

		/**
		 * Servlet URL patterns of the application's own endpoints (such as /api/* or
		 * /actuator/*) that get the same Origin and Host check as the MCP endpoint.
		 */
		private List<String> protectedPaths = new ArrayList<>();

		/**
		 * Longest time an open stream goes without a write before it gets a heartbeat
		 * comment, at most 30s; a client gone without a word is found within two. Zero
		 * turns them off.
		 */
		private Duration heartbeatInterval = Duration.ofSeconds(15);

		/**
		 * Connections kept for requests other than streams below the servlet container's
		 * connection limit (server.tomcat.max-connections, server.jetty.max-connections);
		 * a new stream past the limit less this is answered with 503.
		 */
		private int connectionReserve = 200;

		/**
		 * Largest request body accepted; larger requests are answered with 413.
		 */
		private DataSize maxRequestSize = DataSize.ofMegabytes(4);

		public String getPath() {
			return this.path;
		}

		public void setPath(String path) {
			this.path = path;
		}

		public boolean isDnsRebindingProtection() {
			return this.dnsRebindingProtection;
		}

		public void setDnsRebindingProtection(boolean dnsRebindingProtection) {
			this.dnsRebindingProtection = dnsRebindingProtection;
		}

		public List<String> getAllowedOrigins() {
			return this.allowedOrigins;
		}

		public void setAllowedOrigins(List<String> allowedOrigins) {
			this.allowedOrigins = allowedOrigins;
		}

		public List<String> getAllowedHosts() {
			return this.allowedHosts;
		}

		public void setAllowedHosts(List<String> allowedHosts) {
			this.allowedHosts = allowedHosts;
		}

		public List<String> getProtectedPaths() {
			return this.protectedPaths;
		}

		public void setProtectedPaths(List<String> protectedPaths) {
			this.protectedPaths = protectedPaths;
		}

		public Duration getHeartbeatInterval() {
			return this.heartbeatInterval;
		}

		public void setHeartbeatInterval(Duration heartbeatInterval) {
			this.heartbeatInterval = heartbeatInterval;
		}

		public int getConnectionReserve() {
			return this.connectionReserve;
		}

		public void setConnectionReserve(int connectionReserve) {
			this.connectionReserve = connectionReserve;
		}

		public DataSize getMaxRequestSize() {
			return this.maxRequestSize;
		}

		public void setMaxRequestSize(DataSize maxRequestSize) {
			this.maxRequestSize = maxRequestSize;
		}

	}

	/**
	 * The {@code mcp.sessions.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class Sessions {

		/**
		 * How long a session lives without requests or an open stream.
		 */
		private Duration idleTimeout = Duration.ofMinutes(30);

		/**
		 * Maximum number of sessions at once; initialize is refused past it.
		 */
		private int max = 10_000;

		/**
		 * Maximum number of sessions of one authenticated principal at once; initialize
		 * is refused past it. 0 for no limit. Anonymous callers are not counted by it.
		 */
		private int maxPerPrincipal = 0;

		/**
		 * How many messages of a session's stream are kept for replay after a reconnect
		 * with Last-Event-ID.
		 */
		private int replayLogSize = 256;

		/**
		 * Maximum number of notifications a stream opening replays from the shared change
		 * log in cluster mode (one node replays at most 'replay-log-size'); past it the
		 * client gets one resync per subscription instead.
		 */
		private int maxReplay = 1000;

		/**
		 * Reconnection delay sent as an SSE 'retry' field just before the server ends the
		 * stream of a client of 2025-11-25 or later (shutdown, slow consumer), never in
		 * the priming event; 0 leaves it out.
		 */
		private Duration retry = Duration.ofSeconds(1);

		public int getReplayLogSize() {
			return this.replayLogSize;
		}

		public void setReplayLogSize(int replayLogSize) {
			this.replayLogSize = replayLogSize;
		}

		public int getMaxReplay() {
			return this.maxReplay;
		}

		public void setMaxReplay(int maxReplay) {
			this.maxReplay = maxReplay;
		}

		public Duration getRetry() {
			return this.retry;
		}

		public void setRetry(Duration retry) {
			this.retry = retry;
		}

		public Duration getIdleTimeout() {
			return this.idleTimeout;
		}

		public void setIdleTimeout(Duration idleTimeout) {
			this.idleTimeout = idleTimeout;
		}

		public int getMax() {
			return this.max;
		}

		public void setMax(int max) {
			this.max = max;
		}

		public int getMaxPerPrincipal() {
			return this.maxPerPrincipal;
		}

		public void setMaxPerPrincipal(int maxPerPrincipal) {
			this.maxPerPrincipal = maxPerPrincipal;
		}

	}

}
