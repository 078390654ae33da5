package io.github.mcpsubscriptions.session;

import java.util.Collection;

import org.jspecify.annotations.Nullable;

/**
 * Where the durable state of sessions lives. The default keeps it in memory; a clustered
 * deployment provides a shared store so that any node can serve any session.
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

}
