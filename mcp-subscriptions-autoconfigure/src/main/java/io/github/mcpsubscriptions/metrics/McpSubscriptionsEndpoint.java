package io.github.mcpsubscriptions.metrics;

import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.NotificationStats;
import io.github.mcpsubscriptions.notification.Subscriber;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.SessionEndReason;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code mcpsubscriptions} Actuator endpoint: what the subscription system is doing.
 * Sessions are named by their subscriber id, never by their (secret) session id. Closing
 * a session is refused unless enabled.
 *
 * @since 0.1.0
 */
@Endpoint(id = "mcpsubscriptions")
public class McpSubscriptionsEndpoint {

	static final int MAX_SESSIONS_LISTED = 100;

	private final McpSessionManager sessions;

	private final NotificationEngine dispatcher;

	private final Object configuration;

	private final int topUris;

	private final boolean allowSessionClose;

	public McpSubscriptionsEndpoint(McpSessionManager sessions, NotificationEngine dispatcher, Object configuration,
			int topUris, boolean allowSessionClose) {
		this(sessions, dispatcher, configuration, topUris, allowSessionClose, null);
	}

	/**
	 * Create the endpoint for a node of a cluster.
	 * @param sessions the sessions
	 * @param dispatcher the dispatcher
	 * @param configuration the settings to report
	 * @param topUris how many of the most subscribed URIs to list
	 * @param allowSessionClose whether sessions may be closed
	 * @param node this node's name, or {@code null} on a single node
	 */
	public McpSubscriptionsEndpoint(McpSessionManager sessions, NotificationEngine dispatcher, Object configuration,
			int topUris, boolean allowSessionClose, @Nullable String node) {
		this.node = node;
		this.sessions = sessions;
		this.dispatcher = dispatcher;
		this.configuration = configuration;
		this.topUris = topUris;
		this.allowSessionClose = allowSessionClose;
	}

	private final @Nullable String node;

	@ReadOperation
	public Report report() {
		NotificationStats stats = this.dispatcher.getStats();
		Map<String, Object> totals = new LinkedHashMap<>();
		if (this.node != null) {
			// In a cluster, the sessions listed are those whose streams this node holds.
			totals.put("node", this.node);
		}
		totals.put("sessions", this.sessions.getSessionCount());
		totals.put("openStreams", this.sessions.getOpenStreamCount());
		totals.put("subscriptions", this.dispatcher.getIndex().size());
		totals.put("subscribers", this.dispatcher.getSubscribers().size());
		totals.put("dispatchBacklog", this.dispatcher.getBacklog());
		totals.put("eventsReceived", stats.getEventsReceived());
		totals.put("notificationsSent", stats.getSent());
		totals.put("notificationsCoalesced", stats.getCoalesced());
		totals.put("notificationsDelayed", stats.getDelayed());
		totals.put("notificationsFiltered", stats.getFiltered());
		totals.put("notificationsDenied", stats.getDenied());
		totals.put("outboxOverflows", stats.getOverflows());
		totals.put("notificationsDroppedOnOverflow", stats.getDroppedOnOverflow());
		totals.put("resyncsQueued", stats.getResyncsQueued());
		totals.put("replaysServed", stats.getReplays());
		totals.put("stalledStreams", stats.getStalls());
		Map<String, Integer> byKind = new LinkedHashMap<>();
		this.dispatcher.getIndex()
			.countByKind()
			.forEach((kind, count) -> byKind.put(kind.name().toLowerCase(Locale.ROOT), count));
		List<TopUri> top = this.dispatcher.getIndex()
			.topSubscribedUris(this.topUris)
			.entrySet()
			.stream()
			.map((entry) -> new TopUri(entry.getKey(), entry.getValue()))
			.toList();
		List<SessionReport> sessionReports = this.sessions.getSessions()
			.stream()
			.sorted(Comparator.comparing(McpSession::getLastAccessedAt).reversed())
			.limit(MAX_SESSIONS_LISTED)
			.map(this::describe)
			.filter(Objects::nonNull)
			.toList();
		return new Report(totals, byKind, top, sessionReports, this.configuration);
	}

	private @Nullable SessionReport describe(McpSession session) {
		// A shared session is reported by the node that holds its stream.
		Subscriber subscriber = this.sessions.isShared() ? this.sessions.findSubscriber(session.getId())
				: this.sessions.getSubscriber(session);
		if (subscriber == null) {
			return null;
		}
		return new SessionReport(subscriber.getId(), session.getProtocolVersion(), session.getCreatedAt(),
				session.getLastAccessedAt(), this.dispatcher.getIndex().subscriptionsOf(subscriber).size(),
				this.sessions.getStream(session.getId()) != null, this.dispatcher.getWaiting(subscriber));
	}

	@DeleteOperation
	public WebEndpointResponse<Map<String, Object>> closeSession(@Selector String subscriberId) {
		if (!this.allowSessionClose) {
			return new WebEndpointResponse<>(
					Map.of("message", "Closing sessions is disabled; set mcp.management.allow-session-close=true"),
					403);
		}
		McpSession session = this.sessions.findBySubscriberId(subscriberId);
		if (session == null || !this.sessions.end(session.getId(), SessionEndReason.DELETED)) {
			return new WebEndpointResponse<>(Map.of("message", "No session " + subscriberId),
					WebEndpointResponse.STATUS_NOT_FOUND);
		}
		return new WebEndpointResponse<>(Map.of("closed", subscriberId), WebEndpointResponse.STATUS_OK);
	}

	/**
	 * What the endpoint reports.
	 *
	 * @param totals counts
	 * @param subscriptionsByKind active subscriptions by coverage kind
	 * @param topSubscribedUris the most subscribed URIs
	 * @param sessions the most recently used sessions, at most 100
	 * @param configuration the {@code mcp.*} settings in effect
	 * @since 0.1.0
	 */
	public record Report(Map<String, Object> totals, Map<String, Integer> subscriptionsByKind,
			List<TopUri> topSubscribedUris, List<SessionReport> sessions, Object configuration) {
	}

	/**
	 * A subscribed URI and how many subscribers it has.
	 *
	 * @param uri the URI
	 * @param subscribers the number of subscribers
	 * @since 0.1.0
	 */
	public record TopUri(String uri, int subscribers) {
	}

	/**
	 * One session, named by its subscriber id.
	 *
	 * @param id the subscriber id
	 * @param protocolVersion the negotiated version
	 * @param createdAt when it was created
	 * @param lastAccessedAt when it was last used
	 * @param subscriptions how many subscriptions it holds
	 * @param streamOpen whether its GET stream is open on this node
	 * @param pendingNotifications notifications waiting in its outbox
	 * @since 0.1.0
	 */
	public record SessionReport(String id, String protocolVersion, Instant createdAt, Instant lastAccessedAt,
			int subscriptions, boolean streamOpen, int pendingNotifications) {
	}

}
