package io.github.mcpsubscriptions.jsonrpc;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A message could not be read: a parse error or an invalid request. Carries the request
 * id when it could still be read, so the error response can echo it.
 *
 * @since 0.1.0
 */
public class InvalidMessageException extends JsonRpcException {

	private final @Nullable JsonNode id;

	public InvalidMessageException(int code, String message, @Nullable JsonNode id) {
		super(code, message);
		this.id = id;
	}

	public @Nullable JsonNode getId() {
		return this.id;
	}

}
