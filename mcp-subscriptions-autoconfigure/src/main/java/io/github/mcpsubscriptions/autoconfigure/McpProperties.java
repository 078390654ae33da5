package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.notification.CorrelationMode;
import io.github.mcpsubscriptions.resource.CacheHints;
import io.github.mcpsubscriptions.server.ListenManager;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties for MCP resource subscriptions.
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

	private final Management management = new Management();

	private final Listen listen = new Listen();

	private final Cluster cluster = new Cluster();

	private final Security security = new Security();

	private final Jpa jpa = new Jpa();

	private final Capture capture = new Capture();

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

	public Management getManagement() {
		return this.management;
	}

	public Listen getListen() {
		return this.listen;
	}

	public Security getSecurity() {
		return this.security;
	}

	public Jpa getJpa() {
		return this.jpa;
	}

	public Capture getCapture() {
		return this.capture;
	}

	public static class Capture {

		/**
		 * Whether committed row changes of the captured tables are read from the database
		 * (PostgreSQL) and notify subscribers, whoever wrote them.
		 */
		private boolean enabled;

		/**
		 * Captured tables (optionally schema-qualified) and the URI template of each,
		 * such as product=catalog://products/{id}; template variables name columns of the
		 * table.
		 */
		private Map<String, String> tables = new LinkedHashMap<>();

		/**
		 * Whether the change table, the trigger function and the triggers are created (or
		 * brought up to date) at start-up; otherwise they must have been installed
		 * before.
		 */
		private boolean installSchema = true;

		/**
		 * Name of the change table the triggers fill, optionally schema-qualified; its
		 * cursor table gets the same name with "_cursor" appended.
		 */
		private String tableName = "mcp_change";

		/**
		 * How long captured rows are kept; older ones are pruned, and a capture that
		 * finds unread rows pruned tells the subscribers of the captured resources to
		 * resync.
		 */
		private Duration retention = Duration.ofHours(24);

		/**
		 * How often the capture looks for changes when no notification wakes it.
		 */
		private Duration pollInterval = Duration.ofSeconds(1);

		/**
		 * How many captured rows one read takes at most.
		 */
		private int batchSize = 500;

		/**
		 * Longest wait between two attempts to reconnect after the capture's connection
		 * is lost.
		 */
		private Duration maxBackOff = Duration.ofSeconds(5);

		/**
		 * How long captured changes may wait behind a transaction still open before the
		 * capture logs a warning naming it and reports its health down.
		 */
		private Duration holdWarningThreshold = Duration.ofSeconds(10);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Map<String, String> getTables() {
			return this.tables;
		}

		public void setTables(Map<String, String> tables) {
			this.tables = tables;
		}

		public boolean isInstallSchema() {
			return this.installSchema;
		}

		public void setInstallSchema(boolean installSchema) {
			this.installSchema = installSchema;
		}

		public String getTableName() {
			return this.tableName;
		}

		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		public Duration getRetention() {
			return this.retention;
		}

		public void setRetention(Duration retention) {
			this.retention = retention;
		}

		public Duration getPollInterval() {
			return this.pollInterval;
		}

		public void setPollInterval(Duration pollInterval) {
			this.pollInterval = pollInterval;
		}

		public int getBatchSize() {
			return this.batchSize;
		}

		public void setBatchSize(int batchSize) {
			this.batchSize = batchSize;
		}

		public Duration getMaxBackOff() {
			return this.maxBackOff;
		}

		public void setMaxBackOff(Duration maxBackOff) {
			this.maxBackOff = maxBackOff;
		}

		public Duration getHoldWarningThreshold() {
			return this.holdWarningThreshold;
		}

		public void setHoldWarningThreshold(Duration holdWarningThreshold) {
			this.holdWarningThreshold = holdWarningThreshold;
		}

	}

	public static class Jpa {

		/**
		 * Whether committed JPA changes of entities annotated with @McpResourceEntity
		 * notify subscribers.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	public static class Security {

		/**
		 * Whether the resources' rules (@PreAuthorize on @McpResource methods) decide
		 * reads, listings, subscriptions and deliveries when Spring Security is on the
		 * class path.
		 */
		private boolean enabled = true;

		private final DecisionCache decisionCache = new DecisionCache();

		private final OAuth2 oauth2 = new OAuth2();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public DecisionCache getDecisionCache() {
			return this.decisionCache;
		}

		public OAuth2 getOauth2() {
			return this.oauth2;
		}

		public static class DecisionCache {

			/**
			 * How long an access decision at delivery is kept per authentication, rule
			 * and URI variables; zero to evaluate the rule for every notification.
			 */
			private Duration ttl = Duration.ofSeconds(10);

			/**
			 * How many access decisions are kept at most.
			 */
			private int maxSize = 10_000;

			public Duration getTtl() {
				return this.ttl;
			}

			public void setTtl(Duration ttl) {
				this.ttl = ttl;
			}

			public int getMaxSize() {
				return this.maxSize;
			}

			public void setMaxSize(int maxSize) {
				this.maxSize = maxSize;
			}

		}

		public static class OAuth2 {

			/**
			 * The resource URI of the MCP endpoint, such as https://mcp.example.com/mcp:
			 * the audience access tokens must carry and the "resource" of the metadata
			 * document.
			 */
			private @Nullable String resource;

			/**
			 * The issuers of the authorization servers that clients may get tokens from.
			 */
			private List<String> authorizationServers = new ArrayList<>();

			/**
			 * The scopes the resource understands: listed in the metadata document, and
			 * the order 401 and insufficient_scope challenges name and prefer the needed
			 * scopes in.
			 */
			private List<String> scopes = new ArrayList<>();

			/**
			 * A human-readable name of the resource, for the metadata document.
			 */
			private @Nullable String resourceName;

			public @Nullable String getResource() {
				return this.resource;
			}

			public void setResource(@Nullable String resource) {
				this.resource = resource;
			}

			public List<String> getAuthorizationServers() {
				return this.authorizationServers;
			}

			public void setAuthorizationServers(List<String> authorizationServers) {
				this.authorizationServers = authorizationServers;
			}

			public List<String> getScopes() {
				return this.scopes;
			}

			public void setScopes(List<String> scopes) {
				this.scopes = scopes;
			}

			public @Nullable String getResourceName() {
				return this.resourceName;
			}

			public void setResourceName(@Nullable String resourceName) {
				this.resourceName = resourceName;
			}

		}

	}

	public Cluster getCluster() {
		return this.cluster;
	}

	public static class Cluster {

		/**
		 * Whether nodes share sessions, subscriptions and changes through Redis (needs
		 * Spring Data Redis). Never on merely because Redis is on the class path.
		 */
		private boolean enabled;

		/**
		 * Prefix of every Redis key the cluster writes; nodes of one cluster share it.
		 */
		private String keyPrefix = "mcp:";

		/**
		 * How many entries the shared change log keeps: the replay window for resuming on
		 * any node.
		 */
		private int logSize = 10000;

		/**
		 * How long one read of the change log waits for new entries.
		 */
		private Duration pollTimeout = Duration.ofSeconds(1);

		/**
		 * This node's name in reports; defaults to a random one.
		 */
		private @Nullable String nodeName;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		public int getLogSize() {
			return this.logSize;
		}

		public void setLogSize(int logSize) {
			this.logSize = logSize;
		}

		public Duration getPollTimeout() {
			return this.pollTimeout;
		}

		public void setPollTimeout(Duration pollTimeout) {
			this.pollTimeout = pollTimeout;
		}

		public @Nullable String getNodeName() {
			return this.nodeName;
		}

		public void setNodeName(@Nullable String nodeName) {
			this.nodeName = nodeName;
		}

	}

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
		 * How long a listen stream lasts before the server completes it gracefully; zero
		 * for no limit.
		 */
		private Duration maxDuration = Duration.ofHours(1);

		/**
		 * How listen requests are answered: 'stream' holds the response open for
		 * notifications; 'complete-immediately' acknowledges an empty filter and
		 * completes at once, for hosts that cannot hold a response open.
		 */
		private ListenManager.Mode mode = ListenManager.Mode.STREAM;

		private final RateLimit rateLimit = new RateLimit();

		public ListenManager.Mode getMode() {
			return this.mode;
		}

		public void setMode(ListenManager.Mode mode) {
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

	}

	public static class Management {

		/**
		 * Whether the 'mcpsubscriptions' Actuator endpoint may close sessions.
		 */
		private boolean allowSessionClose;

		/**
		 * How many of the most subscribed URIs the Actuator endpoint lists.
		 */
		private int topUris = 10;

		/**
		 * Dispatch backlog above which the health indicator reports down.
		 */
		private int healthMaxBacklog = 10_000;

		public boolean isAllowSessionClose() {
			return this.allowSessionClose;
		}

		public void setAllowSessionClose(boolean allowSessionClose) {
			this.allowSessionClose = allowSessionClose;
		}

		public int getTopUris() {
			return this.topUris;
		}

		public void setTopUris(int topUris) {
			this.topUris = topUris;
		}

		public int getHealthMaxBacklog() {
			return this.healthMaxBacklog;
		}

		public void setHealthMaxBacklog(int healthMaxBacklog) {
			this.healthMaxBacklog = healthMaxBacklog;
		}

	}

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

		/**
		 * Whether notifications carry 'subscribedUri' for every client (as
		 * correlation-mode 'always') or for none (as 'never').
		 */
		private @Nullable Boolean correlation;

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
		 * The deprecated boolean form of the correlation mode.
		 * @return the setting, or {@code null} when unset
		 * @deprecated in favour of {@code mcp.subscriptions.correlation-mode}
		 */
		@Deprecated(since = "0.1.0")
		@DeprecatedConfigurationProperty(replacement = "mcp.subscriptions.correlation-mode",
				reason = "Clients that do not declare the correlation capability now get one notification per change")
		public @Nullable Boolean getCorrelation() {
			return this.correlation;
		}

		@Deprecated(since = "0.1.0")
		public void setCorrelation(@Nullable Boolean correlation) {
			this.correlation = correlation;
		}

		/**
		 * The correlation mode in effect: the deprecated boolean decides while the mode
		 * is left at 'auto'.
		 * @return the mode
		 */
		@SuppressWarnings("deprecation")
		CorrelationMode effectiveCorrelationMode() {
			Boolean legacy = getCorrelation();
			if (this.correlationMode != CorrelationMode.AUTO || legacy == null) {
				return this.correlationMode;
			}
			return legacy ? CorrelationMode.ALWAYS : CorrelationMode.NEVER;
		}

	}

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
		 * Size of the delivery thread pool on JDKs without virtual threads.
		 */
		private int deliveryThreads = 16;

		/**
		 * Share of the available processors that notification delivery may keep busy at
		 * once (at least one writer), so that request threads keep the rest under load.
		 */
		private double deliveryCpuShare = 0.5;

		/**
		 * Maximum number of waiting notifications written to one stream with one flush; 1
		 * flushes after every notification (several times slower at saturation).
		 */
		private int writeBatchSize = 64;

		/**
		 * Size at which a batch of notifications to one stream is flushed and other
		 * streams' writers go first.
		 */
		private DataSize writeBatchBytes = DataSize.ofKilobytes(32);

		/**
		 * How long, at most, a lone notification waits for others to share its write,
		 * while delivery is saturated and its stream had several waiting within the last
		 * second; 0 turns this off.
		 */
		private Duration gatheringWindow = Duration.ofMillis(100);

		/**
		 * How long, at least, a stream's writer waits between two turns while delivery is
		 * saturated: what arrives for the stream meanwhile shares its next write; 0 never
		 * holds a turn back.
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

		public int getWriteBatchSize() {
			return this.writeBatchSize;
		}

		public void setWriteBatchSize(int writeBatchSize) {
			this.writeBatchSize = writeBatchSize;
		}

		public DataSize getWriteBatchBytes() {
			return this.writeBatchBytes;
		}

		public void setWriteBatchBytes(DataSize writeBatchBytes) {
			this.writeBatchBytes = writeBatchBytes;
		}

		public Duration getGatheringWindow() {
			return this.gatheringWindow;
		}

		public void setGatheringWindow(Duration gatheringWindow) {
			this.gatheringWindow = gatheringWindow;
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

	public static class Resources {

		/**
		 * Most entries in one page of resources/list and resources/templates/list.
		 */
		private int pageSize = 100;

		private final Cache cache = new Cache();

		public Cache getCache() {
			return this.cache;
		}

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
			private CacheHints.Scope scope = CacheHints.Scope.PRIVATE;

			public Duration getTtl() {
				return this.ttl;
			}

			public void setTtl(Duration ttl) {
				this.ttl = ttl;
			}

			public CacheHints.Scope getScope() {
				return this.scope;
			}

			public void setScope(CacheHints.Scope scope) {
				this.scope = scope;
			}

		}

		public int getPageSize() {
			return this.pageSize;
		}

		public void setPageSize(int pageSize) {
			this.pageSize = pageSize;
		}

	}

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
