package io.github.mcpsubscriptions.session;

/**
 * Told when sessions end, so that whatever they held (subscriptions, buffers) is freed.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface SessionListener {

	/**
	 * A session ended; it can no longer be found.
	 * @param session the session
	 * @param reason why it ended
	 */
	void sessionEnded(McpSession session, SessionEndReason reason);

}
