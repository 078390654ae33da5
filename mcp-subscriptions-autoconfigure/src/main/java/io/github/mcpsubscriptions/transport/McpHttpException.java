package io.github.mcpsubscriptions.transport;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcError;

import org.springframework.http.HttpStatus;

/**
 * A request that is refused at the HTTP level, answered with a status and a JSON-RPC
 * error body.
 */
class McpHttpException extends RuntimeException {

	private final HttpStatus status;

	private final JsonRpcError error;

	McpHttpException(HttpStatus status, int code, String message) {
		this(status, new JsonRpcError(code, message));
	}

	McpHttpException(HttpStatus status, JsonRpcError error) {
		super(error.message(), null, false, false);
		this.status = status;
		this.error = error;
	}

	HttpStatus getStatus() {
		return this.status;
	}

	JsonRpcError getError() {
		return this.error;
	}

}
