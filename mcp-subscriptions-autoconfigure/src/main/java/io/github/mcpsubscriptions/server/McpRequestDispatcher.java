package io.github.mcpsubscriptions.server;

import java.security.Principal;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcMessage;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcRequest;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcResponse;
import io.github.mcpsubscriptions.notification.CorrelationMode;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.prompt.PromptAccessPolicy;
import io.github.mcpsubscriptions.prompt.PromptCompleter;
import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.resource.CacheHints;
import io.github.mcpsubscriptions.resource.ResourceCompleter;
import io.github.mcpsubscriptions.resource.ResourceContentMapper;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.ProtocolVersions;
import io.github.mcpsubscriptions.session.SessionLimitExceededException;
import io.github.mcpsubscriptions.session.StoreUnavailableException;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.tool.ToolAccessPolicy;
import io.github.mcpsubscriptions.tool.ToolCallObserver;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Dispatches MCP messages to their methods and turns every outcome into a response: a
 * result, the {@link JsonRpcException} a method threw, or {@code -32603} with a safe
 * message for anything unexpected (which is logged, never sent).
 *
 * @since 0.1.0
 */
public class McpRequestDispatcher {

	private static final Log logger = LogFactory.getLog(McpRequestDispatcher.class);

	static final String INITIALIZE = "initialize";

	private static final List<String> LOG_LEVELS = List.of("debug", "info", "notice", "warning", "error", "critical",
			"alert", "emergency");

	private static final Map<String, Object> EMPTY_RESULT = Map.of();

	/**
	 * The most characters of JSON kept of a client's {@code capabilities} for its
	 * session.
	 */
	public static final int MAX_CAPABILITIES_CHARS = 8192;

	/**
	 * The most characters of JSON kept of a client's {@code clientInfo} for its session.
	 */
	public static final int MAX_CLIENT_INFO_CHARS = 2048;

	private final McpServerInfo serverInfo;

	/**
	 * Whether the server honours a client's correlation capability (and so advertises
	 * it).
	 */
	private final boolean correlation;

	private final McpSessionManager sessionManager;

	private final Map<String, McpMethodHandler> methods = new HashMap<>();

	private final ResourceMethods resourceMethods;

	private final SubscriptionMethods subscriptionMethods;

	private final ToolMethods toolMethods;

	private final PromptMethods promptMethods;

	private final Map<String, McpMethodHandler> statelessMethods = new ConcurrentHashMap<>();

	/** Methods of other features whose response is a stream of their own (2026 era). */
	private final Map<String, McpStreamedMethod> streamedMethods = new ConcurrentHashMap<>();

	/** Extensions added by other features, advertised in server/discover (2026 era). */
	private final Map<String, Object> statelessExtensions = new ConcurrentHashMap<>();

	private final JsonRpcCodec codec;

	private final CacheHints defaultCacheHints;

	private final boolean listenEnabled;

	private final Map<String, String> listenListChanges = new ConcurrentHashMap<>();

	private final Limits limits;

	private volatile McpRequestObserver requestObserver = McpRequestObserver.NONE;

	private static final String SERVER_INFO_META = "io.modelcontextprotocol/serverInfo";

	/** Results that clients may cache, which therefore carry hints (2026 era). */
	private static final Set<String> CACHEABLE = Set.of("server/discover", "resources/list", "resources/templates/list",
			"resources/read", "tools/list", "prompts/list");

	/**
	 * Create a dispatcher.
	 * @param serverInfo how the server introduces itself
	 * @param sessionManager creates sessions on {@code initialize}
	 * @param resources the resources offered
	 * @param contentMapper turns what resources return into contents
	 * @param completers complete template variables
	 * @param pageSize how many entries a list result holds at most
	 * @param notifications holds the subscriptions
	 * @param accessPolicy decides who may subscribe to what
	 * @param limits the subscription limits
	 * @param events publishes audit events
	 * @param codec the wire format, to shape 2026-era results
	 * @param defaultCacheHints caching hints of 2026-era results by default
	 * @param listenEnabled whether 2026-era clients may listen for changes
	 * @param tools the tools offered
	 * @param toolAccessPolicy decides who may call (and see) which tool
	 * @param toolPageSize how many tools a tools/list result holds at most
	 * @param prompts the prompts offered
	 * @param promptAccessPolicy decides who may get (and see) which prompt
	 * @param promptCompleters complete prompt arguments
	 * @param promptPageSize how many prompts a prompts/list result holds at most
	 */
	public McpRequestDispatcher(McpServerInfo serverInfo, McpSessionManager sessionManager, ResourceRegistry resources,
			ResourceContentMapper contentMapper, List<ResourceCompleter> completers, int pageSize,
			NotificationEngine notifications, ResourceAccessPolicy accessPolicy, SubscriptionLimits limits,
			ApplicationEventPublisher events, JsonRpcCodec codec, CacheHints defaultCacheHints, boolean listenEnabled,
			ToolRegistry tools, ToolAccessPolicy toolAccessPolicy, int toolPageSize, PromptRegistry prompts,
			PromptAccessPolicy promptAccessPolicy, List<PromptCompleter> promptCompleters, int promptPageSize) {
		this.codec = codec;
		this.defaultCacheHints = defaultCacheHints;
		this.listenEnabled = listenEnabled;
		this.correlation = notifications.getCorrelation() != CorrelationMode.NEVER;
		this.serverInfo = serverInfo;
		this.sessionManager = sessionManager;
		this.resourceMethods = new ResourceMethods(resources, contentMapper, completers, pageSize, accessPolicy);
		this.resourceMethods.register(this.methods);
		this.limits = new Limits(notifications, sessionManager, limits);
		this.subscriptionMethods = new SubscriptionMethods(notifications, sessionManager, resources, accessPolicy,
				this.limits, events);
		this.subscriptionMethods.register(this.methods);
		this.toolMethods = new ToolMethods(tools, toolAccessPolicy, codec, toolPageSize);
		this.toolMethods.register(this.methods);
		this.promptMethods = new PromptMethods(prompts, promptAccessPolicy, promptCompleters, promptPageSize);
		this.promptMethods.register(this.methods);
		this.methods.put(INITIALIZE, this::initialize);
		this.methods.put("ping", (exchange, params) -> EMPTY_RESULT);
		this.methods.put("logging/setLevel", this::setLogLevel);
		this.methods.put("completion/complete", this::complete);
		// 2026-07-28 removed initialize, ping, logging/setLevel and
		// resources/(un)subscribe.
		for (String method : List.of("resources/list", "resources/templates/list", "resources/read",
				"completion/complete", "tools/list", "tools/call")) {
			this.statelessMethods.put(method, this.methods.get(method));
		}
		this.statelessMethods.put("server/discover", this::discover);
		// Served with or without prompts: an empty, cacheable list says there are none,
		// as
		// 2026-era clients and caches expect every list to answer.
		this.promptMethods.registerStateless(this.statelessMethods);
	}

	/**
	 * Handle a stateless (2026-era) request whose headers and {@code _meta} the transport
	 * has validated. Results get {@code resultType}, the server's identity in
	 * {@code _meta} and, where cacheable, {@code ttlMs} and {@code cacheScope}.
	 * @param request the request
	 * @param exchange the request's context
	 * @return the response; a {@code -32601} error for methods this era does not have
	 */
	public JsonRpcResponse dispatchStateless(JsonRpcRequest request, McpExchange exchange) {
		return observed(request,
				this.statelessMethods.containsKey(request.method()) || INITIALIZE.equals(request.method()),
				() -> ProtocolVersions.V2026_07_28, () -> answerStateless(request, exchange));
	}

	private JsonRpcResponse answerStateless(JsonRpcRequest request, McpExchange exchange) {
		McpMethodHandler handler = this.statelessMethods.get(request.method());
		if (handler == null && INITIALIZE.equals(request.method())) {
			// Tell a client that mixed the eras which versions it can have.
			return JsonRpcResponse.failure(request.id(),
					new JsonRpcException(JsonRpcErrorCodes.METHOD_NOT_FOUND,
							"Method not found: initialize does not exist in protocol 2026-07-28",
							Map.of("supported", ProtocolVersions.ALL))
						.getError());
		}
		if (handler == null) {
			return JsonRpcResponse.failure(request.id(), JsonRpcException.methodNotFound(request.method()).getError());
		}
		JsonRpcResponse response = handleRequest(request, exchange, handler);
		if (response.error() != null) {
			return response;
		}
		ObjectNode result = (ObjectNode) this.codec.toTree(response.result());
		result.put("resultType", "complete");
		if (CACHEABLE.contains(request.method())) {
			CacheHints hints = (exchange.getCacheHints() != null) ? exchange.getCacheHints() : this.defaultCacheHints;
			result.put("ttlMs", hints.ttl().toMillis());
			result.put("cacheScope", hints.scope().name().toLowerCase(Locale.ROOT));
		}
		ObjectNode meta = result.has("_meta") ? (ObjectNode) result.get("_meta") : result.putObject("_meta");
		meta.set(SERVER_INFO_META, this.codec.toTree(implementation()));
		return JsonRpcResponse.success(request.id(), result);
	}

	/**
	 * Add a method of the 2026-07-28 era, for a feature outside this package (an
	 * extension). Called while the application starts, before requests are served.
	 * @param method the method's name
	 * @param handler answers it: the result, or a {@link JsonRpcException}
	 * @throws IllegalStateException if the method exists already
	 */
	public void addStatelessMethod(String method, BiFunction<McpExchange, @Nullable ObjectNode, Object> handler) {
		if (this.statelessMethods.putIfAbsent(method, handler::apply) != null) {
			throw new IllegalStateException("The MCP method " + method + " exists already");
		}
	}

	/**
	 * Add a method of the 2026-07-28 era whose response is a stream of its own, for a
	 * feature outside this package (an extension). Called while the application starts,
	 * before requests are served.
	 * @param method the method's name
	 * @param handler opens its streams
	 * @throws IllegalStateException if the method exists already
	 */
	public void addStreamedMethod(String method, McpStreamedMethod handler) {
		if (this.statelessMethods.containsKey(method) || this.streamedMethods.putIfAbsent(method, handler) != null) {
			throw new IllegalStateException("The MCP method " + method + " exists already");
		}
	}

	/**
	 * The method of this name whose response is a stream of its own, if there is one.
	 * @param method the method's name
	 * @return the method, or {@code null}
	 */
	public @Nullable McpStreamedMethod streamedMethod(String method) {
		return this.streamedMethods.get(method);
	}

	/**
	 * End the stream of a streamed method that a {@code notifications/cancelled} names.
	 * @param requestId the cancelled request's id
	 * @param caller who sent the notification
	 * @return whether a stream ended
	 */
	public boolean cancelStreamed(JsonNode requestId, McpStreamedMethod.Caller caller) {
		for (McpStreamedMethod method : this.streamedMethods.values()) {
			if (method.cancel(requestId, caller)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Advertise an extension in {@code capabilities.extensions} of
	 * {@code server/discover} (2026 era).
	 * @param id the extension's identifier
	 * @param settings its settings object, written as JSON
	 */
	public void addStatelessExtension(String id, Object settings) {
		this.statelessExtensions.put(id, settings);
	}

	/**
	 * Let listen streams ask for an extension's list changes (2026 era): a boolean field
	 * of the listen request's {@code notifications} filter, echoed in the acknowledgement
	 * when asked for, and the notification sent on the stream when
	 * {@link io.github.mcpsubscriptions.notification.NotificationEngine#extensionListChanged}
	 * is called with its method. Called while the application starts.
	 * @param filterField the filter's field, such as {@code eventsListChanged}
	 * @param method the notification's method, such as
	 * {@code notifications/events/list_changed}
	 */
	public void addListenListChanges(String filterField, String method) {
		this.listenListChanges.put(filterField, method);
	}

	/**
	 * The extensions' list changes listen streams may ask for.
	 * @return the notifications' methods by the filter's fields
	 */
	Map<String, String> listenListChanges() {
		return this.listenListChanges;
	}

	/**
	 * Whether 2026-era clients may listen (and so be told of list changes).
	 * @return whether listen streams are on
	 */
	public boolean isListenEnabled() {
		return this.listenEnabled;
	}

	/**
	 * Whether at least one tool is offered (and so the tools capability advertised).
	 * @return whether there is a tool
	 */
	public boolean hasTools() {
		return this.toolMethods.hasTools();
	}

	/**
	 * Whether at least one prompt is offered (and so the prompts capability advertised
	 * with {@code listChanged}).
	 * @return whether there is a prompt
	 */
	public boolean hasPrompts() {
		return this.promptMethods.hasPrompts();
	}

	/**
	 * Observe every tool call (metrics).
	 * @param observer the observer
	 */
	public void setToolCallObserver(ToolCallObserver observer) {
		this.toolMethods.setObserver(observer);
	}

	/**
	 * Observe every answered request (metrics).
	 * @param observer the observer
	 */
	public void setRequestObserver(McpRequestObserver observer) {
		this.requestObserver = observer;
	}

	private JsonRpcResponse observed(JsonRpcRequest request, boolean known, Supplier<@Nullable String> protocolVersion,
			Supplier<JsonRpcResponse> answer) {
		long started = System.nanoTime();
		JsonRpcResponse response = null;
		Class<? extends Throwable> failure = null;
		try {
			response = answer.get();
			return response;
		}
		catch (RuntimeException ex) {
			failure = ex.getClass();
			throw ex;
		}
		finally {
			observe(request, known, protocolVersion.get(), response, failure, started);
		}
	}

	private void observe(JsonRpcRequest request, boolean known, @Nullable String protocolVersion,
			@Nullable JsonRpcResponse response, @Nullable Class<? extends Throwable> failure, long started) {
		McpRequestObserver observer = this.requestObserver;
		if (observer == McpRequestObserver.NONE) {
			return;
		}
		String tool = null;
		JsonNode name = (known && "tools/call".equals(request.method()) && request.params() != null)
				? request.params().get("name") : null;
		if (name != null && name.isString() && this.toolMethods.isRegistered(name.stringValue())) {
			tool = name.stringValue();
		}
		Integer errorCode = (response != null && response.error() != null) ? response.error().code() : null;
		boolean toolError = tool != null && response != null && ToolMethods.isToolError(response.result());
		try {
			observer.answered(new McpRequestObserver.Answered(known ? request.method() : null, protocolVersion, tool,
					errorCode, toolError, failure, Duration.ofNanos(System.nanoTime() - started)));
		}
		catch (RuntimeException ex) {
			logger.warn("MCP request observer " + observer + " failed", ex);
		}
	}

	/**
	 * Whether a subscription URI would be accepted: a valid URI that covers a registered
	 * resource or template and that the access policy allows.
	 * @param uri the URI
	 * @param principal the caller, or {@code null}
	 * @return whether it is acceptable
	 */
	public boolean isAcceptableSubscription(String uri, @Nullable Principal principal) {
		return this.subscriptionMethods.isValid(uri) && this.subscriptionMethods.isAcceptable(uri, principal);
	}

	/**
	 * The counts of requests refused by a capacity limit.
	 * @return the stats
	 */
	public LimitStats getLimitStats() {
		return this.limits.stats();
	}

	SubscriptionMethods subscriptions() {
		return this.subscriptionMethods;
	}

	Limits limits() {
		return this.limits;
	}

	private Object discover(McpExchange exchange, @Nullable ObjectNode params) {
		return new DiscoverResult(ProtocolVersions.ALL, statelessCapabilities(), this.serverInfo.instructions());
	}

	private Map<String, Object> statelessCapabilities() {
		Map<String, Object> capabilities = new LinkedHashMap<>();
		capabilities.put("resources", Map.of("subscribe", this.listenEnabled, "listChanged", this.listenEnabled));
		capabilities.put("completions", EMPTY_RESULT);
		if (this.toolMethods.hasTools()) {
			// listChanged reaches 2026-era clients on a listen stream only.
			capabilities.put("tools", Map.of("listChanged", this.listenEnabled));
		}
		// listChanged reaches 2026-era clients on a listen stream only, and only with
		// prompts.
		capabilities.put("prompts",
				this.promptMethods.hasPrompts() ? Map.of("listChanged", this.listenEnabled) : EMPTY_RESULT);
		Map<String, Object> extensions = new TreeMap<>(this.statelessExtensions);
		if (this.correlation) {
			extensions.put(CorrelationMode.CAPABILITY, EMPTY_RESULT);
		}
		if (!extensions.isEmpty()) {
			capabilities.put("extensions", extensions);
		}
		return capabilities;
	}

	/**
	 * Handle one message.
	 * @param message the message
	 * @param exchange the request's context
	 * @return the response for a request; {@code null} for a notification or a response
	 */
	public @Nullable JsonRpcResponse dispatch(JsonRpcMessage message, McpExchange exchange) {
		if (message instanceof JsonRpcRequest request) {
			// The session's version is read afterwards: initialize creates the session.
			return observed(request, this.methods.containsKey(request.method()), () -> {
				McpSession session = exchange.getSession();
				return (session != null) ? session.getProtocolVersion() : null;
			}, () -> handleRequest(request, exchange));
		}
		if (message instanceof JsonRpcNotification notification) {
			handleNotification(notification, exchange);
		}
		// Responses from the client answer nothing this server asked: accepted and
		// ignored.
		return null;
	}

	private JsonRpcResponse handleRequest(JsonRpcRequest request, McpExchange exchange) {
		return handleRequest(request, exchange, this.methods.get(request.method()));
	}

	private JsonRpcResponse handleRequest(JsonRpcRequest request, McpExchange exchange,
			@Nullable McpMethodHandler handler) {
		try {
			if (handler == null) {
				throw JsonRpcException.methodNotFound(request.method());
			}
			return JsonRpcResponse.success(request.id(), handler.handle(exchange, request.params()));
		}
		catch (JsonRpcException ex) {
			return JsonRpcResponse.failure(request.id(), ex.getError());
		}
		catch (SessionLimitExceededException ex) {
			this.limits.refused(ex.getProperty());
			// Capacity, not a bad request: the transport answers it with its own status.
			throw ex;
		}
		catch (StoreUnavailableException ex) {
			// A backing service, not a bad request: the transport answers it with its own
			// status.
			throw ex;
		}
		catch (RuntimeException ex) {
			logger.error("MCP method " + request.method() + " failed", ex);
			return JsonRpcResponse.failure(request.id(),
					new JsonRpcException(JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error").getError());
		}
	}

	private void handleNotification(JsonRpcNotification notification, McpExchange exchange) {
		if ("notifications/initialized".equals(notification.method()) && exchange.getSession() != null) {
			McpSession session = exchange.getSession();
			session.markInitialized();
			this.sessionManager.save(session);
		}
		// Other notifications (cancelled, roots/list_changed, ...) need no action here.
	}

	private Object initialize(McpExchange exchange, @Nullable ObjectNode params) {
		String requested = Params.requireString(params, "protocolVersion");
		ObjectNode capabilities = Params.requireKeepable(Params.requireObject(params, "capabilities"), "capabilities",
				MAX_CAPABILITIES_CHARS);
		ObjectNode clientInfo = Params.requireKeepable(Params.requireObject(params, "clientInfo"), "clientInfo",
				MAX_CLIENT_INFO_CHARS);
		Params.requireString(clientInfo, "name");
		String version = ProtocolVersions.negotiate(requested);
		McpSession session = this.sessionManager.create(version, clientInfo, capabilities, exchange.getPrincipal());
		exchange.setSession(session);
		return new InitializeResult(version, capabilities(), implementation(), this.serverInfo.instructions());
	}

	private Map<String, Object> capabilities() {
		Map<String, Object> capabilities = new LinkedHashMap<>();
		capabilities.put("resources", Map.of("subscribe", true, "listChanged", true));
		capabilities.put("logging", EMPTY_RESULT);
		capabilities.put("completions", EMPTY_RESULT);
		if (this.toolMethods.hasTools()) {
			capabilities.put("tools", Map.of("listChanged", true));
		}
		if (this.promptMethods.hasPrompts()) {
			capabilities.put("prompts", Map.of("listChanged", true));
		}
		if (this.correlation) {
			capabilities.put("experimental", Map.of(CorrelationMode.CAPABILITY, EMPTY_RESULT));
		}
		return capabilities;
	}

	private Implementation implementation() {
		return new Implementation(this.serverInfo.name(), this.serverInfo.version(), this.serverInfo.title());
	}

	private Object setLogLevel(McpExchange exchange, @Nullable ObjectNode params) {
		String level = Params.requireString(params, "level");
		if (!LOG_LEVELS.contains(level)) {
			throw JsonRpcException.invalidParams("Invalid params: \"level\" must be one of " + LOG_LEVELS);
		}
		McpSession session = exchange.requireSession();
		session.setLogLevel(level);
		this.sessionManager.save(session);
		return EMPTY_RESULT;
	}

	private Object complete(McpExchange exchange, @Nullable ObjectNode params) {
		ObjectNode ref = Params.requireObject(params, "ref");
		String type = Params.requireString(ref, "type");
		switch (type) {
			case "ref/prompt" -> Params.requireString(ref, "name");
			case "ref/resource" -> Params.requireString(ref, "uri");
			default -> throw JsonRpcException
				.invalidParams("Invalid params: \"ref.type\" must be \"ref/prompt\" or \"ref/resource\"");
		}
		ObjectNode argument = Params.requireObject(params, "argument");
		String name = Params.requireString(argument, "name");
		String value = Params.requireString(argument, "value");
		if (type.equals("ref/resource")) {
			return new CompleteResult(this.resourceMethods.complete(ref.get("uri").stringValue(), name, value,
					ResourceMethods.contextArguments(params.get("context")), exchange.getPrincipal()));
		}
		// An unknown prompt or argument answers an empty completion, as for resources.
		return new CompleteResult(this.promptMethods.complete(ref.get("name").stringValue(), name, value,
				ResourceMethods.contextArguments(params.get("context")), exchange.getPrincipal()));
	}

	record DiscoverResult(List<String> supportedVersions, Map<String, Object> capabilities,
			@Nullable String instructions) {
	}

	record InitializeResult(String protocolVersion, Map<String, Object> capabilities, Implementation serverInfo,
			@Nullable String instructions) {
	}

	record Implementation(String name, String version, @Nullable String title) {
	}

	record CompleteResult(ResourceMethods.Completion completion) {
	}

}
