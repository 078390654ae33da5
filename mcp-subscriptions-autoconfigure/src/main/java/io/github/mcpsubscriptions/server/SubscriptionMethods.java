package io.github.mcpsubscriptions.server;

import java.security.Principal;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.Subscriber;
import io.github.mcpsubscriptions.resource.ResolvedResource;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.resource.UriTemplate;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.subscription.CoverageKind;
import io.github.mcpsubscriptions.subscription.CoverageRules;
import io.github.mcpsubscriptions.subscription.McpSubscriptionAuditEvent;
import io.github.mcpsubscriptions.subscription.McpSubscriptionAuditEvent.Action;
import io.github.mcpsubscriptions.subscription.McpSubscriptionAuditEvent.Reason;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.context.ApplicationEventPublisher;

/**
 * {@code resources/subscribe} and {@code resources/unsubscribe}, and the validation both
 * protocol eras apply to a subscription: a URI, covering at least one registered resource
 * or template, allowed by the access policy, within the limits.
 */
class SubscriptionMethods {

	private static final Pattern URI_SYNTAX = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:[^\\s\\x00-\\x1F\\x7F]*");

	private static final Map<String, Object> EMPTY_RESULT = Map.of();

	/** The subscriber id audit events name for sessions shared between nodes. */
	private static final String SHARED_SESSION = "shared-session";

	private final NotificationEngine dispatcher;

	private final McpSessionManager sessionManager;

	private final ResourceRegistry registry;

	private final ResourceAccessPolicy accessPolicy;

	private final Limits limits;

	private final ApplicationEventPublisher events;

	SubscriptionMethods(NotificationEngine dispatcher, McpSessionManager sessionManager, ResourceRegistry registry,
			ResourceAccessPolicy accessPolicy, Limits limits, ApplicationEventPublisher events) {
		this.dispatcher = dispatcher;
		this.sessionManager = sessionManager;
		this.registry = registry;
		this.accessPolicy = accessPolicy;
		this.limits = limits;
		this.events = events;
	}

	void register(Map<String, McpMethodHandler> methods) {
		methods.put("resources/subscribe", this::subscribe);
		methods.put("resources/unsubscribe", this::unsubscribe);
	}

	private Object subscribe(McpExchange exchange, @Nullable ObjectNode params) {
		McpSession session = exchange.requireSession();
		if (this.sessionManager.isShared()) {
			return subscribeShared(exchange, session, params);
		}
		Subscriber subscriber = this.sessionManager.getSubscriber(session);
		Principal principal = exchange.getPrincipal();
		subscriber.setPrincipal(principal);
		String uri = null;
		try {
			uri = requireSubscriptionUri(params);
			if (!isAcceptable(uri, principal)) {
				throw ResourceMethods.notFound(uri, exchange);
			}
			this.limits.subscribe(subscriber, uri, principal);
		}
		catch (JsonRpcException ex) {
			this.limits.countIfLimit(ex);
			String reported = (uri != null) ? uri : String.valueOf((params != null) ? params.get("uri") : null);
			audit(Action.REJECT, reported, subscriber, principal, reason(ex));
			throw ex;
		}
		audit(Action.SUBSCRIBE, uri, subscriber, principal, null);
		return EMPTY_RESULT;
	}

	/**
	 * A session whose stream any node may hold: the subscription goes to the shared
	 * store, whose log tells the node holding the stream (this one included) in order
	 * with the changes.
	 */
	private Object subscribeShared(McpExchange exchange, McpSession session, @Nullable ObjectNode params) {
		Principal principal = exchange.getPrincipal();
		String uri = null;
		try {
			uri = requireSubscriptionUri(params);
			if (!isAcceptable(uri, principal)) {
				throw ResourceMethods.notFound(uri, exchange);
			}
			Set<String> existing = this.sessionManager.getStore().getSubscriptions(session);
			if (!existing.contains(uri)) {
				this.limits.checkShared(existing.size(), principal);
			}
			// A re-subscribe too: its authentication judges the deliveries from now on.
			this.sessionManager.getStore().addSubscription(session, uri, principal);
		}
		catch (JsonRpcException ex) {
			this.limits.countIfLimit(ex);
			String reported = (uri != null) ? uri : String.valueOf((params != null) ? params.get("uri") : null);
			this.events.publishEvent(new McpSubscriptionAuditEvent(this, Action.REJECT, reported, SHARED_SESSION,
					principal, reason(ex)));
			throw ex;
		}
		this.events
			.publishEvent(new McpSubscriptionAuditEvent(this, Action.SUBSCRIBE, uri, SHARED_SESSION, principal, null));
		return EMPTY_RESULT;
	}

	private static Reason reason(JsonRpcException ex) {
		return switch (ex.getError().code()) {
			case JsonRpcErrorCodes.RESOURCE_NOT_FOUND -> Reason.NOT_FOUND;
			case JsonRpcErrorCodes.SERVER_ERROR -> Reason.LIMIT;
			default -> Reason.INVALID;
		};
	}

	private Object unsubscribe(McpExchange exchange, @Nullable ObjectNode params) {
		String uri = ResourceMethods.requireUri(params);
		if (this.sessionManager.isShared()) {
			if (this.sessionManager.getStore().removeSubscription(exchange.requireSession(), uri)) {
				this.events.publishEvent(new McpSubscriptionAuditEvent(this, Action.UNSUBSCRIBE, uri, SHARED_SESSION,
						exchange.getPrincipal(), null));
			}
			return EMPTY_RESULT;
		}
		Subscriber subscriber = this.sessionManager.getSubscriber(exchange.requireSession());
		if (this.dispatcher.unsubscribe(subscriber, uri)) {
			audit(Action.UNSUBSCRIBE, uri, subscriber, exchange.getPrincipal(), null);
		}
		return EMPTY_RESULT;
	}

	private void audit(Action action, String uri, Subscriber subscriber, @Nullable Principal principal,
			@Nullable Reason reason) {
		this.events
			.publishEvent(new McpSubscriptionAuditEvent(this, action, uri, subscriber.getId(), principal, reason));
	}

	/**
	 * Read and check a subscription URI.
	 * @throws JsonRpcException {@code -32602} when it is missing, too long, not a URI, or
	 * an invalid template or pattern
	 */
	static String requireSubscriptionUri(@Nullable ObjectNode params) {
		String uri = ResourceMethods.requireUri(params);
		if (!URI_SYNTAX.matcher(uri).matches()) {
			throw JsonRpcException.invalidParams("Invalid params: \"uri\" is not a URI (scheme:rest, no spaces)");
		}
		try {
			CoverageRules.validate(uri);
		}
		catch (IllegalArgumentException ex) {
			throw JsonRpcException.invalidParams("Invalid params: " + ex.getMessage());
		}
		return uri;
	}

	/**
	 * Whether a URI is well-formed for a subscription.
	 */
	boolean isValid(String uri) {
		if (uri.isEmpty() || uri.length() > ResourceMethods.MAX_URI_LENGTH || !URI_SYNTAX.matcher(uri).matches()) {
			return false;
		}
		try {
			CoverageRules.validate(uri);
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/**
	 * Whether a subscription covers at least one resource or template the caller may know
	 * of: a resource it may read, or a template listed to it. Whether it may read a URI a
	 * template makes is not asked here but for each delivery: a URI the rule hides is
	 * accepted exactly as one that does not exist (a refusal would tell the two apart),
	 * and it never delivers anything. A refusal looks like "not found".
	 */
	boolean isAcceptable(String uri, @Nullable Principal principal) {
		for (ResourceDefinition resource : this.registry.getResources()) {
			if (CoverageRules.covers(uri, resource.getUri())
					&& this.accessPolicy.canRead(principal, resource.getUri())) {
				return true;
			}
		}
		CoverageKind kind = CoverageRules.kindOf(uri);
		if (kind != CoverageKind.TEMPLATE && kind != CoverageKind.PATTERN) {
			ResolvedResource resolved = this.registry.resolve(uri);
			if (resolved != null && (resolved.definition().isTemplate()
					? this.accessPolicy.canListTemplate(principal, resolved.definition().getUri())
					: this.accessPolicy.canRead(principal, uri))) {
				return true;
			}
		}
		String base = base(uri, kind);
		for (ResourceDefinition template : this.registry.getTemplates()) {
			if (coversTemplate(uri, base, template)
					&& this.accessPolicy.canListTemplate(principal, template.getUri())) {
				return true;
			}
		}
		return false;
	}

	private static boolean coversTemplate(String uri, String base, ResourceDefinition template) {
		if (template.getUri().equals(uri)) {
			return true;
		}
		String prefix = template.getTemplate().getLiteralPrefix();
		// The template's URIs lie below the subscription...
		if (prefix.startsWith(base)
				&& (base.endsWith("/") || prefix.length() == base.length() || prefix.charAt(base.length()) == '/')) {
			return true;
		}
		// ...or a reserved expansion can reach below it.
		return template.getUri().contains("{+") && base.startsWith(prefix);
	}

	private static String base(String uri, CoverageKind kind) {
		if (kind == CoverageKind.TEMPLATE) {
			String prefix = UriTemplate.parse(uri).getLiteralPrefix();
			return prefix.substring(0, prefix.lastIndexOf('/') + 1);
		}
		int query = uri.indexOf('?');
		return (query >= 0) ? uri.substring(0, query) : uri;
	}

}
