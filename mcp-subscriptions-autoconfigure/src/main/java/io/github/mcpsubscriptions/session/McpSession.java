package io.github.mcpsubscriptions.session;

import java.time.Instant;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The durable state of one 2025-era session: what {@code initialize} negotiated and when
 * the session was last used. Live streams are node-local and kept by
 * {@link McpSessionManager}, not here, so a {@link SessionStore} can hold this state
 * anywhere.
 *
 * @since 0.1.0
 */
public final class McpSession {

	private final String id;

	private final String protocolVersion;

	private final JsonNode clientInfo;

	private final JsonNode clientCapabilities;

	private final @Nullable String principalName;

	private final Instant createdAt;

	private volatile Instant lastAccessedAt;

	private volatile boolean initialized;

	private volatile @Nullable String logLevel;

	private final SessionEventLog eventLog;

	public McpSession(String id, String protocolVersion, JsonNode clientInfo, JsonNode clientCapabilities,
			@Nullable String principalName, Instant createdAt, int replayLogSize) {
		this.id = id;
		this.protocolVersion = protocolVersion;
		this.clientInfo = clientInfo;
		this.clientCapabilities = clientCapabilities;
		this.principalName = principalName;
		this.createdAt = createdAt;
		this.lastAccessedAt = createdAt;
		this.eventLog = new SessionEventLog(replayLogSize);
	}

	/**
	 * The event ids and replay log of the session's GET stream. Kept with the session, so
	 * that {@code Last-Event-ID} can resume wherever the session is served.
	 * @return the log
	 */
	public SessionEventLog getEventLog() {
		return this.eventLog;
	}

	public String getId() {
		return this.id;
	}

	/**
	 * The protocol version negotiated by {@code initialize}.
	 * @return the version
	 */
	public String getProtocolVersion() {
		return this.protocolVersion;
	}

	public JsonNode getClientInfo() {
		return this.clientInfo;
	}

	public JsonNode getClientCapabilities() {
		return this.clientCapabilities;
	}

	/**
	 * The name of the authenticated principal that created the session, if any. Requests
	 * of another principal do not see the session.
	 * @return the principal name or {@code null}
	 */
	public @Nullable String getPrincipalName() {
		return this.principalName;
	}

	public Instant getCreatedAt() {
		return this.createdAt;
	}

	public Instant getLastAccessedAt() {
		return this.lastAccessedAt;
	}

	public void setLastAccessedAt(Instant lastAccessedAt) {
		this.lastAccessedAt = lastAccessedAt;
	}

	/**
	 * Whether the client sent {@code notifications/initialized}.
	 * @return whether the session is initialized
	 */
	public boolean isInitialized() {
		return this.initialized;
	}

	public void markInitialized() {
		this.initialized = true;
	}

	/**
	 * The minimum log level the client asked for with {@code logging/setLevel}.
	 * @return the level or {@code null} if never set
	 */
	public @Nullable String getLogLevel() {
		return this.logLevel;
	}

	public void setLogLevel(String logLevel) {
		this.logLevel = logLevel;
	}

	@Override
	public String toString() {
		// Never the id: it is a bearer secret for the session.
		return "McpSession[protocolVersion=" + this.protocolVersion + ", createdAt=" + this.createdAt + "]";
	}

}
