package io.github.mcpsubscriptions.session;

import java.security.Principal;
import java.util.Collection;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Where the durable state of sessions lives. The default keeps it in memory; a clustered
 * deployment provides a shared store so that any node can serve any session.
 *
 * @since 0.1.0
 */
public interface SessionStore {

	/**
	 * Save a new or changed session.
	 * @param session the session
	 */
	void save(McpSession session);

	/**
	 * Save a changed session only if it is still stored: a request that found a session
	 * just before it ended must not bring it back. Stores should override this with an
	 * atomic operation; the default is not atomic.
	 * @param session the session
	 * @return whether the session was still stored
	 */
	default boolean replace(McpSession session) {
		if (find(session.getId()) == null) {
			return false;
		}
		save(session);
		return true;
	}

	/**
	 * Find a session.
	 * @param id the session id
	 * @return the session, or {@code null} if there is none with that id
	 */
	@Nullable McpSession find(String id);

	/**
	 * Remove a session.
	 * @param id the session id
	 * @return the removed session, or {@code null} if there was none
	 */
	@Nullable McpSession remove(String id);

	/**
	 * All sessions, for expiry and reporting.
	 * @return a snapshot of the sessions
	 */
	Collection<McpSession> findAll();

	/**
	 * How many sessions there are.
	 * @return the count
	 */
	int count();

	/**
	 * How many sessions of one principal there are, for
	 * {@code mcp.sessions.max-per-principal}. The default counts {@link #findAll()}; a
	 * shared store whose {@code findAll()} holds only the sessions this node served
	 * should override it to count across the nodes.
	 * @param principalName the principal's name
	 * @return the count
	 */
	default int countByPrincipal(String principalName) {
		int count = 0;
		for (McpSession session : findAll()) {
			if (principalName.equals(session.getPrincipalName())) {
				count++;
			}
		}
		return count;
	}

	/**
	 * Whether several nodes share this store. A shared store keeps each session's
	 * subscriptions; a node holds them in its index only while it holds the session's
	 * stream.
	 * @return whether the store is shared
	 */
	default boolean isShared() {
		return false;
	}

	/**
	 * Add a subscription to a session of a shared store.
	 * @param session the session
	 * @param uri the URI subscribed to
	 * @return {@code false} if it existed already
	 */
	default boolean addSubscription(McpSession session, String uri) {
		throw new UnsupportedOperationException("Only a shared store keeps subscriptions");
	}

	/**
	 * Subscribe a session of a shared store, again if it is subscribed already: the
	 * request's authentication judges the session's deliveries from now on, wherever its
	 * stream is held, as the latest request's does on one node. By default, as
	 * {@link #addSubscription(McpSession, String)}.
	 * @param session the session
	 * @param uri the URI subscribed to
	 * @param principal the request's authenticated principal, or {@code null}
	 * @return {@code false} if it existed already
	 */
	default boolean addSubscription(McpSession session, String uri, @Nullable Principal principal) {
		return addSubscription(session, uri);
	}

	/**
	 * Remove a subscription from a session of a shared store.
	 * @param session the session
	 * @param uri the URI subscribed to
	 * @return whether there was such a subscription
	 */
	default boolean removeSubscription(McpSession session, String uri) {
		throw new UnsupportedOperationException("Only a shared store keeps subscriptions");
	}

	/**
	 * How many subscriptions the sessions of a shared store hold, on every node, for
	 * {@code mcp.subscriptions.max-total}.
	 * @return the count
	 */
	default int countSubscriptions() {
		throw new UnsupportedOperationException("Only a shared store keeps subscriptions");
	}

	/**
	 * How many subscriptions the sessions of one principal hold in a shared store, on
	 * every node, for {@code mcp.subscriptions.max-per-principal}.
	 * @param principalName the principal's name
	 * @return the count
	 */
	default int countSubscriptionsByPrincipal(String principalName) {
		throw new UnsupportedOperationException("Only a shared store keeps subscriptions");
	}

	/**
	 * The subscriptions of a session of a shared store.
	 * @param session the session
	 * @return the subscribed URIs
	 */
	default Set<String> getSubscriptions(McpSession session) {
		throw new UnsupportedOperationException("Only a shared store keeps subscriptions");
	}

}
