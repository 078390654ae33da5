package io.github.mcpsubscriptions.jsonrpc;

/**
 * Error codes used on the wire: the JSON-RPC 2.0 ones and those MCP defines.
 *
 * @since 0.1.0
 */
public final class JsonRpcErrorCodes {

	/** Invalid JSON was received. */
	public static final int PARSE_ERROR = -32700;

	/** The JSON sent is not a valid request object. */
	public static final int INVALID_REQUEST = -32600;

	/** The method does not exist or is not available. */
	public static final int METHOD_NOT_FOUND = -32601;

	/** Invalid method parameters. */
	public static final int INVALID_PARAMS = -32602;

	/** An internal error; its message never carries internal details. */
	public static final int INTERNAL_ERROR = -32603;

	/** A server error that is not about the request's content: limits, capacity. */
	public static final int SERVER_ERROR = -32000;

	/** The session named by {@code Mcp-Session-Id} does not exist (any more). */
	public static final int SESSION_NOT_FOUND = -32001;

	/** A resource was not found (2025-era protocol versions). */
	public static final int RESOURCE_NOT_FOUND = -32002;

	/** A request needs a client capability the client did not declare (2026-07-28). */
	public static final int MISSING_CLIENT_CAPABILITY = -32021;

	private JsonRpcErrorCodes() {
	}

}
