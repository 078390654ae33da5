package io.github.mcpsubscriptions.transport;

/**
 * HTTP header names of the Streamable HTTP transport. Header names are case-insensitive;
 * these are the spellings the specification uses.
 *
 * @since 0.1.0
 */
public final class McpHeaders {

	/** The session id, assigned in the response to {@code initialize}. */
	public static final String SESSION_ID = "Mcp-Session-Id";

	/** The protocol version of the request. */
	public static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

	/** The SSE id of the last event a reconnecting client received. */
	public static final String LAST_EVENT_ID = "Last-Event-ID";

	private McpHeaders() {
	}

}
