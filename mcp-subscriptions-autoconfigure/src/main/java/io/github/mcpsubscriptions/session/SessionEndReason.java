package io.github.mcpsubscriptions.session;

/**
 * Why a session ended.
 *
 * @since 0.1.0
 */
public enum SessionEndReason {

	/** The client sent DELETE. */
	DELETED,

	/** It was idle for longer than {@code mcp.sessions.idle-timeout}. */
	EXPIRED

}
