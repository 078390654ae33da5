package io.github.mcpsubscriptions.server;

import io.github.mcpsubscriptions.session.McpSession;
import org.jspecify.annotations.Nullable;

/**
 * What the server knows about the request being handled: its session (2025 era), the
 * protocol version in effect and the authenticated principal.
 */
public final class McpExchange {

	private @Nullable McpSession session;

	private final @Nullable String principalName;

	private McpExchange(@Nullable McpSession session, @Nullable String principalName) {
		this.session = session;
		this.principalName = principalName;
	}

	/**
	 * An exchange for a request of an existing session.
	 * @param session the session
	 * @param principalName the authenticated principal, or {@code null}
	 * @return the exchange
	 */
	public static McpExchange forSession(McpSession session, @Nullable String principalName) {
		return new McpExchange(session, principalName);
	}

	/**
	 * An exchange for an {@code initialize} request, which creates its session.
	 * @param principalName the authenticated principal, or {@code null}
	 * @return the exchange
	 */
	public static McpExchange forInitialize(@Nullable String principalName) {
		return new McpExchange(null, principalName);
	}

	/**
	 * The session: the one the request named, or the one {@code initialize} created.
	 * @return the session, or {@code null} before {@code initialize} created it
	 */
	public @Nullable McpSession getSession() {
		return this.session;
	}

	McpSession requireSession() {
		if (this.session == null) {
			throw new IllegalStateException("No session");
		}
		return this.session;
	}

	void setSession(McpSession session) {
		this.session = session;
	}

	public @Nullable String getPrincipalName() {
		return this.principalName;
	}

}
