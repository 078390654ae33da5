package io.github.mcpsubscriptions.server;

import java.security.Principal;

import io.github.mcpsubscriptions.session.McpSession;
import org.jspecify.annotations.Nullable;

/**
 * What the server knows about the request being handled: its session (2025 era), the
 * protocol version in effect and the authenticated principal.
 */
public final class McpExchange {

	private @Nullable McpSession session;

	private final @Nullable Principal principal;

	private McpExchange(@Nullable McpSession session, @Nullable Principal principal) {
		this.session = session;
		this.principal = principal;
	}

	/**
	 * An exchange for a request of an existing session.
	 * @param session the session
	 * @param principal the authenticated principal, or {@code null}
	 * @return the exchange
	 */
	public static McpExchange forSession(McpSession session, @Nullable Principal principal) {
		return new McpExchange(session, principal);
	}

	/**
	 * An exchange for an {@code initialize} request, which creates its session.
	 * @param principal the authenticated principal, or {@code null}
	 * @return the exchange
	 */
	public static McpExchange forInitialize(@Nullable Principal principal) {
		return new McpExchange(null, principal);
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

	public @Nullable Principal getPrincipal() {
		return this.principal;
	}

}
