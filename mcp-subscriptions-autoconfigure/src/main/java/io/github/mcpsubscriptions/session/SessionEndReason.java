package io.github.mcpsubscriptions.session;

/**
 * Why a session ended.
 */
public enum SessionEndReason {

	/** The client sent DELETE. */
	DELETED,

	/** It was idle for longer than {@code mcp.sessions.idle-timeout}. */
	EXPIRED

}
