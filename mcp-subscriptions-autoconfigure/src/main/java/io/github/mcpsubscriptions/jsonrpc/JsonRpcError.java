package io.github.mcpsubscriptions.jsonrpc;

import org.jspecify.annotations.Nullable;

/**
 * The {@code error} member of a JSON-RPC response.
 *
 * @param code the error code, one of {@link JsonRpcErrorCodes} or an application code
 * @param message a concise, single-sentence description, safe to show to a client
 * @param data additional information (any object the wire mapper can write), or
 * {@code null}
 * @since 0.1.0
 */
public record JsonRpcError(int code, String message, @Nullable Object data) {

	public JsonRpcError(int code, String message) {
		this(code, message, null);
	}

}
