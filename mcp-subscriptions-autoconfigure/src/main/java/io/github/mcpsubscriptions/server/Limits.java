package io.github.mcpsubscriptions.server;

import java.security.Principal;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.Subscriber;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import org.jspecify.annotations.Nullable;

/**
 * The capacity limits of subscriptions and listen streams, of both eras, in one place:
 * what is counted (the subscriptions of a session or listen stream, of the server, of a
 * principal; the listen streams of the node and of a principal), the checks, the refusals
 * ({@code -32000}, naming the property that sets the limit in {@code data.limit}) and
 * their count for the metrics ({@link LimitStats}, which counts the session limits'
 * refusals too: those are checked by {@link McpSessionManager} under the lock it saves a
 * new session with, as the check and the save must not be apart).
 */
final class Limits {

	static final String MAX_PER_SESSION = "mcp.subscriptions.max-per-session";

	static final String MAX_TOTAL = "mcp.subscriptions.max-total";

	static final String MAX_PER_PRINCIPAL = "mcp.subscriptions.max-per-principal";

	static final String MAX_STREAMS = "mcp.listen.max-streams";

	static final String MAX_STREAMS_PER_PRINCIPAL = "mcp.listen.max-streams-per-principal";

	private final NotificationEngine dispatcher;

	private final McpSessionManager sessionManager;

	private final SubscriptionLimits subscriptions;

	private final LimitStats stats = new LimitStats();

	/** The listen streams' limits; none is reserved until listening is set up. */
	private volatile Listen listen = new Listen(1, 1, 0, 0);

	/**
	 * The subscriptions of a principal's listen streams; none until listening is set up.
	 */
	private volatile ToIntFunction<String> listenSubscriptions = (principalName) -> 0;

	private final AtomicInteger streams = new AtomicInteger();

	private final ConcurrentHashMap<String, Integer> streamsByPrincipal = new ConcurrentHashMap<>();

	Limits(NotificationEngine dispatcher, McpSessionManager sessionManager, SubscriptionLimits subscriptions) {
		this.dispatcher = dispatcher;
		this.sessionManager = sessionManager;
		this.subscriptions = subscriptions;
	}

	/**
	 * The limits of listen streams, as their manager is configured.
	 *
	 * @param maxSubscriptions the most subscriptions of one stream
	 * @param maxTotal the most subscriptions of the server, counted as a stream opens
	 * @param maxStreams the most streams open at once on this node
	 * @param maxStreamsPerPrincipal the most streams of one principal at once on this
	 * node; zero for no limit
	 */
	record Listen(int maxSubscriptions, int maxTotal, int maxStreams, int maxStreamsPerPrincipal) {
	}

	/**
	 * Set up listening.
	 * @param listen its limits
	 * @param listenSubscriptions the subscriptions of a principal's listen streams on
	 * this node
	 */
	void setListen(Listen listen, ToIntFunction<String> listenSubscriptions) {
		this.listen = listen;
		this.listenSubscriptions = listenSubscriptions;
	}

	LimitStats stats() {
		return this.stats;
	}

	/**
	 * Add a session's subscription on this node within the limits; adding one that exists
	 * changes nothing. Synchronized, so that two subscribes cannot both pass a limit; the
	 * subscriber's monitor, taken inside, is a leaf.
	 * @param subscriber the session's subscriber
	 * @param uri the subscription URI
	 * @param principal the caller, or {@code null}
	 */
	synchronized void subscribe(Subscriber subscriber, String uri, @Nullable Principal principal) {
		Set<String> own = this.dispatcher.getIndex().subscriptionsOf(subscriber);
		if (own.contains(uri)) {
			return;
		}
		checkSubscription(own.size(), this.dispatcher.getIndex().size(), "server", principal);
		try {
			this.dispatcher.subscribe(subscriber, uri);
		}
		catch (IllegalStateException ex) {
			// The session ended (DELETE, expiry) while this request was being served.
			throw new JsonRpcException(JsonRpcErrorCodes.SESSION_NOT_FOUND,
					"Session not found: it ended while the request was served");
		}
	}

	/**
	 * Check a new subscription of a session whose stream any node may hold, counted in
	 * the shared store.
	 * @param own how many subscriptions the session holds
	 * @param principal the caller, or {@code null}
	 */
	void checkShared(int own, @Nullable Principal principal) {
		checkSubscription(own, this.sessionManager.getStore().countSubscriptions(), "cluster", principal);
	}

	private void checkSubscription(int own, int total, String holder, @Nullable Principal principal) {
		int maxPerSubscriber = this.subscriptions.maxPerSubscriber();
		if (own >= maxPerSubscriber) {
			throw limit("at most " + maxPerSubscriber + " subscriptions per session", MAX_PER_SESSION,
					maxPerSubscriber);
		}
		int maxTotal = this.subscriptions.maxTotal();
		if (total >= maxTotal) {
			throw limit("the " + holder + " holds its maximum of " + maxTotal + " subscriptions", MAX_TOTAL, maxTotal);
		}
		checkPrincipal(principal, 1);
	}

	/**
	 * Check a listen stream's subscriptions against the limits and reserve a stream
	 * within the stream limits, the node's and the principal's.
	 * @param principal the caller, or {@code null}
	 * @param subscriptions how many subscriptions the stream would hold
	 */
	void reserveStream(@Nullable Principal principal, int subscriptions) {
		Listen limits = this.listen;
		if (subscriptions > limits.maxSubscriptions()) {
			throw limit("at most " + limits.maxSubscriptions() + " subscriptions per listen stream", MAX_PER_SESSION,
					limits.maxSubscriptions());
		}
		if (this.dispatcher.getIndex().size() + subscriptions > limits.maxTotal()) {
			throw limit("the server holds its maximum of " + limits.maxTotal() + " subscriptions", MAX_TOTAL,
					limits.maxTotal());
		}
		checkPrincipal(principal, subscriptions);
		if (this.streams.incrementAndGet() > limits.maxStreams()) {
			this.streams.decrementAndGet();
			throw limit("at most " + limits.maxStreams() + " listen streams", MAX_STREAMS, limits.maxStreams());
		}
		int maxPerPrincipal = limits.maxStreamsPerPrincipal();
		// Anonymous streams have no one to count them by: mcp.listen.max-streams and the
		// rate limit (by address) bound them.
		if (maxPerPrincipal > 0 && principal != null
				&& this.streamsByPrincipal.merge(principal.getName(), 1, Integer::sum) > maxPerPrincipal) {
			releaseStream(principal);
			throw limit("at most " + maxPerPrincipal + " listen streams per principal", MAX_STREAMS_PER_PRINCIPAL,
					maxPerPrincipal);
		}
	}

	/**
	 * Give back a stream {@linkplain #reserveStream reserved}.
	 * @param principal the principal it was reserved for, or {@code null}
	 */
	void releaseStream(@Nullable Principal principal) {
		this.streams.decrementAndGet();
		if (this.listen.maxStreamsPerPrincipal() > 0 && principal != null) {
			// Down to zero, the entry goes: the map holds only principals with open
			// streams.
			this.streamsByPrincipal.computeIfPresent(principal.getName(),
					(name, count) -> (count > 1) ? count - 1 : null);
		}
	}

	/**
	 * How many listen streams of a principal are open (or about to open) on this node.
	 * @param principalName the principal's name
	 * @return the count; zero while the limit per principal is off
	 */
	int streamsOf(String principalName) {
		return this.streamsByPrincipal.getOrDefault(principalName, 0);
	}

	/**
	 * Refuse subscriptions that would take a principal past
	 * {@code mcp.subscriptions.max-per-principal}. Anonymous callers have no one to count
	 * them by: the per-session and server-wide limits bound them.
	 */
	private void checkPrincipal(@Nullable Principal principal, int adding) {
		int maxPerPrincipal = this.subscriptions.maxPerPrincipal();
		if (maxPerPrincipal > 0 && principal != null && adding > 0
				&& subscriptionsOf(principal.getName()) + adding > maxPerPrincipal) {
			throw limit("at most " + maxPerPrincipal + " subscriptions per principal", MAX_PER_PRINCIPAL,
					maxPerPrincipal);
		}
	}

	/**
	 * The subscriptions a principal holds: those of its sessions (on a shared store, on
	 * every node) and of its listen streams on this node.
	 */
	private int subscriptionsOf(String principalName) {
		int count = this.listenSubscriptions.applyAsInt(principalName);
		if (this.sessionManager.isShared()) {
			return count + this.sessionManager.getStore().countSubscriptionsByPrincipal(principalName);
		}
		for (McpSession session : this.sessionManager.getSessions()) {
			if (principalName.equals(session.getPrincipalName())) {
				Subscriber subscriber = this.sessionManager.findSubscriber(session.getId());
				count += (subscriber != null) ? this.dispatcher.getIndex().subscriptionsOf(subscriber).size() : 0;
			}
		}
		return count;
	}

	/**
	 * Count a refusal by the limit it names, if it is one.
	 * @param ex the error a request was refused with
	 */
	void countIfLimit(JsonRpcException ex) {
		if (ex.getError().code() == JsonRpcErrorCodes.SERVER_ERROR && ex.getError().data() instanceof Map<?, ?> data
				&& data.get("limit") instanceof String limit) {
			this.stats.refused(limit);
		}
	}

	/**
	 * Count a refusal by a limit checked elsewhere (the sessions').
	 * @param limit the property that sets the limit
	 */
	void refused(String limit) {
		this.stats.refused(limit);
	}

	/**
	 * A limit reached: {@code -32000}, naming the property that sets it.
	 */
	static JsonRpcException limit(String what, String property, int value) {
		return new JsonRpcException(JsonRpcErrorCodes.SERVER_ERROR,
				"Subscription limit reached: " + what + " (" + property + ")",
				Map.of("limit", property, "value", value));
	}

}
