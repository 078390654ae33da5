package io.github.mcpsubscriptions.server;

import java.security.Principal;
import java.util.function.Consumer;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import io.github.mcpsubscriptions.resource.CacheHints;
import io.github.mcpsubscriptions.session.McpSession;
import org.jspecify.annotations.Nullable;

/**
 * What the server knows about the request being handled: its session (2025 era), the
 * protocol version in effect and the authenticated principal.
 *
 * @since 0.1.0
 */
public final class McpExchange {

	private @Nullable McpSession session;

	private final @Nullable Principal principal;

	private final boolean stateless;

	private @Nullable CacheHints cacheHints;

	private Consumer<JsonRpcNotification> notificationSink = (notification) -> {
	};

	private McpExchange(@Nullable McpSession session, @Nullable Principal principal, boolean stateless) {
		this.session = session;
		this.principal = principal;
		this.stateless = stateless;
	}

	/**
	 * An exchange for a stateless (2026-era) request, which carries its protocol version,
	 * client info and capabilities in {@code _meta}.
	 * @param principal the authenticated principal, or {@code null}
	 * @return the exchange
	 */
	public static McpExchange stateless(@Nullable Principal principal) {
		return new McpExchange(null, principal, true);
	}

	/**
	 * Whether the request is a stateless (2026-era) one.
	 * @return whether it is stateless
	 */
	public boolean isStateless() {
		return this.stateless;
	}

	/**
	 * An exchange for a request of an existing session.
	 * @param session the session
	 * @param principal the authenticated principal, or {@code null}
	 * @return the exchange
	 */
	public static McpExchange forSession(McpSession session, @Nullable Principal principal) {
		return new McpExchange(session, principal, false);
	}

	/**
	 * An exchange for an {@code initialize} request, which creates its session.
	 * @param principal the authenticated principal, or {@code null}
	 * @return the exchange
	 */
	public static McpExchange forInitialize(@Nullable Principal principal) {
		return new McpExchange(null, principal, false);
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

	/**
	 * Caching hints a method chose for its result (2026 era), overriding the default.
	 * @param cacheHints the hints, or {@code null} for the default
	 */
	void setCacheHints(@Nullable CacheHints cacheHints) {
		this.cacheHints = cacheHints;
	}

	@Nullable CacheHints getCacheHints() {
		return this.cacheHints;
	}

	/**
	 * Where notifications about this request (progress, log messages) go: the transport
	 * sends them to the client before the response, where it can.
	 * @param notificationSink the sink
	 */
	public void setNotificationSink(Consumer<JsonRpcNotification> notificationSink) {
		this.notificationSink = notificationSink;
	}

	Consumer<JsonRpcNotification> getNotificationSink() {
		return this.notificationSink;
	}

	public @Nullable Principal getPrincipal() {
		return this.principal;
	}

}
