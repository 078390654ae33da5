package io.github.mcpsubscriptions.server;

import java.io.IOException;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcRequest;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcResponse;
import io.github.mcpsubscriptions.notification.CorrelationMode;
import io.github.mcpsubscriptions.notification.MessageStream;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.Subscriber;
import io.github.mcpsubscriptions.session.CredentialExpiry;
import io.github.mcpsubscriptions.session.MaintenanceExecutor;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.context.SmartLifecycle;

/**
 * {@code subscriptions/listen} (protocol 2026-07-28): the listen request's own response
 * is the stream. The server acknowledges first, with the part of the filter it honours
 * (subscription URIs that cover nothing and notification types it does not have are left
 * out), then sends notifications tagged with the request's id. The same dispatcher,
 * coverage rules, policies, coalescing and outbox bounds serve both protocol eras.
 * <p>
 * Closing the stream cancels the subscription. When the server stops, or a stream reaches
 * {@code mcp.listen.max-duration}, it answers the listen request with its completion
 * result and then closes the stream.
 * <p>
 * In {@link Mode#COMPLETE_IMMEDIATELY} (hosts that cannot hold a response open) a valid
 * listen is acknowledged with an empty honoured filter and completed at once. Clients
 * that re-listen faster than the rate limit allows are refused
 * ({@link ListenRateLimitedException}), and every refusal and every stream the server
 * ends is counted in {@link #getStats()}.
 *
 * @since 0.1.0
 */
public class ListenManager implements SmartLifecycle {

	static final String SUBSCRIPTION_ID_META = "io.modelcontextprotocol/subscriptionId";

	private static final String CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";

	static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

	private final NotificationEngine dispatcher;

	private final McpRequestDispatcher requests;

	private final JsonRpcCodec codec;

	private final Clock clock;

	private final Settings settings;

	private final Limits limits;

	private final Set<Listen> active = ConcurrentHashMap.newKeySet();

	private final AtomicLong ids = new AtomicLong();

	private final ListenRateLimiter rateLimiter;

	private final ListenStats stats = new ListenStats();

	private volatile @Nullable MaintenanceExecutor scheduler;

	private volatile CredentialExpiry credentialExpiry = CredentialExpiry.NONE;

	public ListenManager(NotificationEngine dispatcher, McpRequestDispatcher requests, JsonRpcCodec codec, Clock clock,
			Settings settings) {
		this.dispatcher = dispatcher;
		this.requests = requests;
		this.codec = codec;
		this.clock = clock;
		this.settings = settings;
		this.rateLimiter = new ListenRateLimiter(settings.rateLimit().requests(), settings.rateLimit().window(),
				settings.rateLimit().maxClients(), clock);
		this.limits = requests.limits();
		this.limits.setListen(new Limits.Listen(settings.maxSubscriptions(), settings.maxTotal(), settings.maxStreams(),
				settings.maxStreamsPerPrincipal()), this::subscriptionsOf);
	}

	/**
	 * How listen requests are answered.
	 *
	 * @since 0.1.0
	 */
	public enum Mode {

		/** The response is a stream that carries notifications until it ends. */
		STREAM,

		/**
		 * The response acknowledges an empty filter and completes at once: for hosts that
		 * cannot hold a response open (serverless platforms), while clients that always
		 * listen still get a well-formed answer.
		 */
		COMPLETE_IMMEDIATELY

	}

	/**
	 * How often one client may open listen streams.
	 *
	 * @param requests how many in a burst and per window; zero for no limit
	 * @param window the window
	 * @param maxClients the most clients tracked at once
	 * @since 0.1.0
	 */
	public record RateLimit(int requests, Duration window, int maxClients) {

		/** No limit. */
		public static final RateLimit NONE = new RateLimit(0, Duration.ofMinutes(1), 1);

	}

	/**
	 * The settings of the listen streams.
	 *
	 * @param enabled whether clients may listen
	 * @param maxStreams the most streams at once on this node
	 * @param maxDuration how long one stream lasts before it is completed; zero for ever
	 * @param maxSubscriptions the most subscription URIs of one stream
	 * @param maxTotal the most subscriptions the server holds
	 * @param mode how listen requests are answered
	 * @param rateLimit how often one client may open listen streams
	 * @param maxStreamsPerPrincipal the most streams of one authenticated principal at
	 * once on this node; zero for no limit
	 * @since 0.1.0
	 */
	public record Settings(boolean enabled, int maxStreams, Duration maxDuration, int maxSubscriptions, int maxTotal,
			Mode mode, RateLimit rateLimit, int maxStreamsPerPrincipal) {

		public Settings(boolean enabled, int maxStreams, Duration maxDuration, int maxSubscriptions, int maxTotal,
				Mode mode, RateLimit rateLimit) {
			this(enabled, maxStreams, maxDuration, maxSubscriptions, maxTotal, mode, rateLimit, 0);
		}

		public Settings(boolean enabled, int maxStreams, Duration maxDuration, int maxSubscriptions, int maxTotal) {
			this(enabled, maxStreams, maxDuration, maxSubscriptions, maxTotal, Mode.STREAM, RateLimit.NONE);
		}

	}

	/**
	 * Set when the credentials streams are opened with expire; by default never. A stream
	 * ends when its credential expires, without a completion result, so that the client
	 * listens again (with a fresh credential).
	 * @param credentialExpiry the expiry
	 */
	public void setCredentialExpiry(CredentialExpiry credentialExpiry) {
		this.credentialExpiry = credentialExpiry;
	}

	public boolean isEnabled() {
		return this.settings.enabled();
	}

	/**
	 * The most listen streams open at once on this node.
	 * @return {@code mcp.listen.max-streams}
	 */
	public int getMaxStreams() {
		return this.settings.maxStreams();
	}

	/**
	 * The counts of refusals and of streams the server ended.
	 * @return the stats
	 */
	public ListenStats getStats() {
		return this.stats;
	}

	/**
	 * The most characters of JSON of a listen request's id, which the stream keeps and
	 * repeats in every message.
	 */
	public static final int MAX_REQUEST_ID_CHARS = 256;

	/**
	 * Validate a listen request and reserve a stream for it.
	 * @param request the request
	 * @param principal the caller, or {@code null}
	 * @param clientAddress the client's address, which the rate limit counts by when
	 * there is no principal
	 * @param connection the id of the network connection the request came over, or
	 * {@code null} if the server does not tell; only a cancellation that comes over the
	 * same connection can name the stream (see {@link #cancel})
	 * @return the listen, to {@link Listen#start(MessageStream) start} on a stream or to
	 * {@link Listen#release() release}
	 * @throws JsonRpcException for invalid params ({@code -32602}), a disabled feature
	 * ({@code -32601}) or a limit ({@code -32000}, {@link ListenRateLimitedException} for
	 * the rate limit)
	 */
	public Listen prepare(JsonRpcRequest request, @Nullable Principal principal, String clientAddress,
			@Nullable String connection) {
		if (!this.settings.enabled()) {
			this.stats.refused(ListenStats.Refusal.DISABLED);
			throw JsonRpcException.methodNotFound(request.method());
		}
		// Counted before anything else: a client that loops on a bad request storms too.
		Duration wait = this.rateLimiter
			.acquire((principal != null) ? "principal:" + principal.getName() : "address:" + clientAddress);
		if (!wait.isZero()) {
			this.stats.refused(ListenStats.Refusal.RATE_LIMIT);
			throw new ListenRateLimitedException(this.settings.rateLimit().requests(),
					this.settings.rateLimit().window(), wait);
		}
		// The id names the stream in every notification it carries: kept as long as it
		// lives.
		Params.requireKeepable(request.id(), "id", MAX_REQUEST_ID_CHARS);
		ObjectNode notifications = Params.requireObject(request.params(), "notifications");
		Map<String, Object> honoured = new LinkedHashMap<>();
		JsonNode listChanged = notifications.get("resourcesListChanged");
		if (listChanged != null && !listChanged.isNull() && !listChanged.isBoolean()) {
			throw JsonRpcException.invalidParams("Invalid params: \"resourcesListChanged\" must be a boolean");
		}
		boolean wantsListChanges = listChanged != null && listChanged.asBoolean(false);
		if (wantsListChanges) {
			honoured.put("resourcesListChanged", true);
		}
		JsonNode toolsListChanged = notifications.get("toolsListChanged");
		if (toolsListChanged != null && !toolsListChanged.isNull() && !toolsListChanged.isBoolean()) {
			throw JsonRpcException.invalidParams("Invalid params: \"toolsListChanged\" must be a boolean");
		}
		// Honoured only where the tools capability (with listChanged) is advertised.
		boolean wantsToolListChanges = toolsListChanged != null && toolsListChanged.asBoolean(false)
				&& this.requests.hasTools();
		if (wantsToolListChanges) {
			honoured.put("toolsListChanged", true);
		}
		JsonNode promptsListChanged = notifications.get("promptsListChanged");
		if (promptsListChanged != null && !promptsListChanged.isNull() && !promptsListChanged.isBoolean()) {
			throw JsonRpcException.invalidParams("Invalid params: \"promptsListChanged\" must be a boolean");
		}
		// Honoured only where the prompts capability (with listChanged) is advertised.
		boolean wantsPromptListChanges = promptsListChanged != null && promptsListChanged.asBoolean(false)
				&& this.requests.hasPrompts();
		if (wantsPromptListChanges) {
			honoured.put("promptsListChanged", true);
		}
		Set<String> extensionListChanges = new HashSet<>();
		this.requests.listenListChanges().forEach((field, method) -> {
			JsonNode asked = notifications.get(field);
			if (asked != null && !asked.isNull() && !asked.isBoolean()) {
				throw JsonRpcException.invalidParams("Invalid params: \"" + field + "\" must be a boolean");
			}
			if (asked != null && asked.asBoolean(false)) {
				honoured.put(field, true);
				extensionListChanges.add(method);
			}
		});
		List<String> uris = acceptedUris(notifications.get("resourceSubscriptions"), principal);
		if (notifications.has("resourceSubscriptions")) {
			honoured.put("resourceSubscriptions", uris);
		}
		if (this.settings.mode() == Mode.COMPLETE_IMMEDIATELY) {
			// Nothing is honoured and nothing is held: no stream slot, no subscriptions.
			return new Listen(request.id(), principal, clientAddress, connection, false, List.of(), Map.of(), true);
		}
		try {
			this.limits.reserveStream(principal, uris.size());
		}
		catch (JsonRpcException ex) {
			this.stats.refused(ListenStats.Refusal.LIMIT);
			this.limits.countIfLimit(ex);
			throw ex;
		}
		Listen listen = new Listen(request.id(), principal, clientAddress, connection, wantsListChanges, uris, honoured,
				false);
		listen.toolListChanges = wantsToolListChanges;
		listen.promptListChanges = wantsPromptListChanges;
		listen.extensionListChanges = extensionListChanges;
		listen.correlationDeclared = CorrelationMode.isDeclaredIn(clientCapabilities(request.params()));
		return listen;
	}

	/**
	 * The subscriptions of a principal's listen streams on this node.
	 */
	private int subscriptionsOf(String principalName) {
		int count = 0;
		for (Listen listen : this.active) {
			if (listen.principal != null && principalName.equals(listen.principal.getName())) {
				count += listen.uris.size();
			}
		}
		return count;
	}

	/**
	 * How many listen streams of a principal are open (or about to open) on this node.
	 * @param principalName the principal's name
	 * @return the count; always zero while {@code mcp.listen.max-streams-per-principal}
	 * is off, as nothing is counted then
	 */
	public int getStreamCount(String principalName) {
		return this.limits.streamsOf(principalName);
	}

	private static @Nullable JsonNode clientCapabilities(@Nullable JsonNode params) {
		JsonNode meta = (params != null) ? params.get("_meta") : null;
		return (meta != null) ? meta.get(CLIENT_CAPABILITIES_META) : null;
	}

	private List<String> acceptedUris(@Nullable JsonNode requested, @Nullable Principal principal) {
		List<String> uris = new ArrayList<>();
		if (requested == null || requested.isNull()) {
			return uris;
		}
		if (!requested.isArray()) {
			throw JsonRpcException.invalidParams("Invalid params: \"resourceSubscriptions\" must be an array of URIs");
		}
		// Each URI is examined once, and none past the one that exceeds the limit (which
		// Limits.reserveStream then refuses): a filter of a hundred thousand URIs costs
		// no more than
		// one of a hundred and one.
		Set<String> examined = new HashSet<>();
		for (JsonNode uri : requested) {
			if (!uri.isString()) {
				throw JsonRpcException
					.invalidParams("Invalid params: \"resourceSubscriptions\" must be an array of URIs");
			}
			// Not honoured, hence left out of the acknowledgement: the client can tell.
			if (examined.add(uri.stringValue())
					&& this.requests.isAcceptableSubscription(uri.stringValue(), principal)) {
				uris.add(uri.stringValue());
				if (uris.size() > this.settings.maxSubscriptions()) {
					break;
				}
			}
		}
		return uris;
	}

	/**
	 * End the listen stream whose client cancelled its listen request
	 * ({@code notifications/cancelled}), without a response to it. Over HTTP the
	 * specification makes closing the stream the cancellation, and a cancellation names
	 * nothing but the request's id, which is the client's own and repeats across clients
	 * (SDKs count from zero), while several clients may share a principal (one token) or
	 * an address (one proxy): when the canceller's own stream is gone already, another
	 * client's stream may be the only one left with that id, and its principal and
	 * address. So the notification ends a stream only when it comes over the very network
	 * connection that carries the stream (HTTP/2 multiplexes both on one), from the same
	 * principal (anonymous: anonymous), and exactly one stream matches. Otherwise nothing
	 * ends: the cancelling client closes its stream, which ends it just as well.
	 * @param params the notification's params, or {@code null}
	 * @param principal the caller, or {@code null}
	 * @param clientAddress the client's address
	 * @param connection the id of the network connection the notification came over, or
	 * {@code null} if the server does not tell
	 * @return whether a stream ended
	 */
	public boolean cancel(@Nullable JsonNode params, @Nullable Principal principal, String clientAddress,
			@Nullable String connection) {
		JsonNode requestId = (params != null) ? params.get("requestId") : null;
		if (requestId == null || !(requestId.isString() || requestId.isIntegralNumber())) {
			// Malformed: ignored, as the specification asks.
			return false;
		}
		if (connection == null) {
			return false;
		}
		Listen match = null;
		for (Listen listen : this.active) {
			if (listen.isNamedBy(requestId, principal, clientAddress, connection)) {
				if (match != null) {
					return false;
				}
				match = listen;
			}
		}
		return match != null && match.cancel();
	}

	/**
	 * How many listen streams are open on this node.
	 * @return the count
	 */
	public int getOpenStreamCount() {
		return this.active.size();
	}

	private void completeExpired() {
		if (this.settings.maxDuration().isZero()) {
			return;
		}
		Instant deadline = this.clock.instant().minus(this.settings.maxDuration());
		for (Listen listen : this.active) {
			if (listen.startedAt().isBefore(deadline)) {
				listen.complete(ListenStats.End.MAX_DURATION, null);
			}
		}
	}

	@Override
	public void start() {
		MaintenanceExecutor executor = new MaintenanceExecutor("mcp-listen");
		if (!this.settings.maxDuration().isZero()) {
			// Every stream is visited at each sweep: a sixtieth of the duration (a
			// minute's
			// lateness in an hour, at most 15 s) keeps that off the idle cost of many
			// streams.
			executor.every(
					Duration.ofMillis(Math.max(50, Math.min(15_000, this.settings.maxDuration().toMillis() / 60))),
					this::completeExpired);
		}
		this.scheduler = executor;
	}

	/**
	 * Complete every stream gracefully (the completion result, then the end of the
	 * stream), waiting a little for the writes, so that clients can tell a shutdown from
	 * a broken connection.
	 */
	@Override
	public void stop() {
		MaintenanceExecutor executor = this.scheduler;
		this.scheduler = null;
		if (executor != null) {
			executor.close();
		}
		List<Listen> open = List.copyOf(this.active);
		CountDownLatch completed = new CountDownLatch(open.size());
		open.forEach((listen) -> listen.complete(ListenStats.End.SHUTDOWN, completed::countDown));
		try {
			completed.await(2, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return this.scheduler != null;
	}

	/**
	 * One listen request: reserved by {@link #prepare}, live once started on its stream.
	 *
	 * @since 0.1.0
	 */
	public final class Listen {

		private final JsonNode requestId;

		private final @Nullable Principal principal;

		private final String clientAddress;

		private final @Nullable String connection;

		private final boolean listChanges;

		private boolean toolListChanges;

		private boolean promptListChanges;

		private Set<String> extensionListChanges = Set.of();

		private final List<String> uris;

		private final Map<String, Object> honoured;

		private boolean correlationDeclared;

		private volatile @Nullable Subscriber subscriber;

		private volatile @Nullable MessageStream stream;

		private volatile Instant startedAt = Instant.EPOCH;

		private final boolean completeImmediately;

		private volatile ListenStats.@Nullable End endReason;

		private volatile @Nullable ScheduledFuture<?> expiry;

		private Listen(JsonNode requestId, @Nullable Principal principal, String clientAddress,
				@Nullable String connection, boolean listChanges, List<String> uris, Map<String, Object> honoured,
				boolean completeImmediately) {
			this.requestId = requestId;
			this.principal = principal;
			this.clientAddress = clientAddress;
			this.connection = connection;
			this.listChanges = listChanges;
			this.uris = uris;
			this.honoured = honoured;
			this.completeImmediately = completeImmediately;
		}

		/**
		 * Start delivering on a stream: the acknowledgement first, then notifications.
		 * @param stream the listen request's response stream
		 */
		public void start(MessageStream stream) {
			Map<String, Object> meta = Map.of(SUBSCRIPTION_ID_META, this.requestId);
			if (this.completeImmediately) {
				try {
					stream.send(null, acknowledgement(meta));
					stream.send(null, completion());
				}
				catch (IOException ex) {
					// The client is gone already: nothing was held for it.
				}
				finally {
					stream.close();
				}
				return;
			}
			Subscriber registered = ListenManager.this.dispatcher
				.register("listen-" + ListenManager.this.ids.incrementAndGet(), this.principal, this.listChanges, meta);
			registered.setCorrelationDeclared(this.correlationDeclared);
			registered.setToolListChanges(this.toolListChanges);
			registered.setPromptListChanges(this.promptListChanges);
			registered.setExtensionListChanges(this.extensionListChanges);
			this.subscriber = registered;
			this.stream = stream;
			this.startedAt = ListenManager.this.clock.instant();
			for (String uri : this.uris) {
				ListenManager.this.dispatcher.subscribe(registered, uri);
			}
			ListenManager.this.active.add(this);
			String ack = acknowledgement(meta);
			ListenManager.this.dispatcher.attach(registered, stream, (target, attachment) -> target.send(null, ack));
			endAtExpiry();
		}

		/**
		 * End the stream when the credential that opened it expires: no delivery is
		 * judged by a credential nobody accepts any more.
		 */
		private void endAtExpiry() {
			Instant expiresAt = (this.principal != null) ? ListenManager.this.credentialExpiry.expiresAt(this.principal)
					: null;
			MaintenanceExecutor executor = ListenManager.this.scheduler;
			if (expiresAt == null || executor == null) {
				return;
			}
			try {
				this.expiry = executor.schedule(Duration.between(ListenManager.this.clock.instant(), expiresAt),
						this::expired);
			}
			catch (RejectedExecutionException ex) {
				// Stopping: every stream is being completed anyway.
				return;
			}
			if (!ListenManager.this.active.contains(this)) {
				// Ended meanwhile, perhaps before its end was scheduled.
				cancelExpiry();
			}
		}

		/**
		 * The credential expired: the stream ends without the completion result, which
		 * the specification makes the client's cue to listen again.
		 */
		private void expired() {
			MessageStream current = this.stream;
			if (current != null && current.isOpen()) {
				this.endReason = ListenStats.End.TOKEN_EXPIRED;
				current.close();
			}
		}

		private void cancelExpiry() {
			ScheduledFuture<?> end = this.expiry;
			if (end != null) {
				end.cancel(false);
			}
		}

		/**
		 * Give the reserved stream back: the response is not a stream after all.
		 */
		public void release() {
			if (!this.completeImmediately) {
				ListenManager.this.limits.releaseStream(this.principal);
			}
		}

		private String acknowledgement(Map<String, Object> meta) {
			return ListenManager.this.codec.writeAsString(
					new JsonRpcNotification(ACKNOWLEDGED, Map.of("_meta", meta, "notifications", this.honoured)));
		}

		private String completion() {
			return ListenManager.this.codec.writeAsString(JsonRpcResponse.success(this.requestId,
					Map.of("resultType", "complete", "_meta", Map.of(SUBSCRIPTION_ID_META, this.requestId))));
		}

		/**
		 * The stream ended (closed by the client, a failed write, or the server): the
		 * subscription is cancelled and everything it held is freed.
		 */
		public void ended() {
			ended(false);
		}

		/**
		 * The stream ended: the subscription is cancelled and everything it held is
		 * freed.
		 * @param closedByServer whether the server closed it other than by completing it
		 * (which happens only to a slow consumer)
		 */
		public void ended(boolean closedByServer) {
			if (ListenManager.this.active.remove(this)) {
				cancelExpiry();
				ListenStats.End reason = this.endReason;
				ListenManager.this.stats.ended((reason != null) ? reason
						: closedByServer ? ListenStats.End.SLOW_CONSUMER : ListenStats.End.CLIENT);
				ListenManager.this.limits.releaseStream(this.principal);
				Subscriber registered = this.subscriber;
				if (registered != null) {
					ListenManager.this.dispatcher.unregister(registered);
				}
			}
		}

		/**
		 * Answer the listen request with its completion result, then close the stream.
		 * @param reason why, as counted when the stream ends
		 * @param whenDone run after the write, or {@code null}
		 */
		void complete(ListenStats.End reason, @Nullable Runnable whenDone) {
			this.endReason = reason;
			Subscriber registered = this.subscriber;
			MessageStream current = this.stream;
			if (registered == null || current == null) {
				if (whenDone != null) {
					whenDone.run();
				}
				return;
			}
			String result = completion();
			ListenManager.this.dispatcher.attach(registered, current, (target, attachment) -> {
				try {
					target.send(null, result);
				}
				finally {
					target.close();
					if (whenDone != null) {
						whenDone.run();
					}
				}
			});
		}

		private boolean isNamedBy(JsonNode requestId, @Nullable Principal caller, String callerAddress,
				String callerConnection) {
			if (!this.requestId.equals(requestId) || !callerConnection.equals(this.connection)) {
				return false;
			}
			if (this.principal == null) {
				return caller == null && this.clientAddress.equals(callerAddress);
			}
			return caller != null && this.principal.getName().equals(caller.getName());
		}

		/**
		 * End the stream at the client's request: no response follows a cancelled
		 * request.
		 */
		private boolean cancel() {
			MessageStream current = this.stream;
			if (current == null || !current.isOpen()) {
				return false;
			}
			this.endReason = ListenStats.End.CLIENT;
			current.close();
			return true;
		}

		Subscriber subscriber() {
			Subscriber registered = this.subscriber;
			if (registered == null) {
				throw new IllegalStateException("The listen stream has not started");
			}
			return registered;
		}

		Instant startedAt() {
			return this.startedAt;
		}

	}

}
