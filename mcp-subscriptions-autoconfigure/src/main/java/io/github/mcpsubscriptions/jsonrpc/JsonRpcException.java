package io.github.mcpsubscriptions.jsonrpc;

import org.jspecify.annotations.Nullable;

/**
 * Thrown to answer a request with a JSON-RPC error. The message is sent to the client, so
 * it must never carry internal details.
 *
 * @since 0.1.0
 */
public class JsonRpcException extends RuntimeException {

	private final JsonRpcError error;

	public JsonRpcException(int code, String message) {
		this(code, message, null);
	}

	public JsonRpcException(int code, String message, @Nullable Object data) {
		super(message, null, false, false);
		this.error = new JsonRpcError(code, message, data);
	}

	public JsonRpcError getError() {
		return this.error;
	}

	public static JsonRpcException invalidParams(String message) {
		return new JsonRpcException(JsonRpcErrorCodes.INVALID_PARAMS, message);
	}

	public static JsonRpcException methodNotFound(String method) {
		return new JsonRpcException(JsonRpcErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method);
	}

}
