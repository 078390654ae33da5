package io.github.mcpsubscriptions.session;

/**
 * A new session would exceed {@code mcp.sessions.max}.
 */
public class SessionLimitExceededException extends RuntimeException {

	private final int limit;

	public SessionLimitExceededException(int limit) {
		super("The server's session limit (mcp.sessions.max=" + limit + ") is reached; try again later", null, false,
				false);
		this.limit = limit;
	}

	public int getLimit() {
		return this.limit;
	}

}
