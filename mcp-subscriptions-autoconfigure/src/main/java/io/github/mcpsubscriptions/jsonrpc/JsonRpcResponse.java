package io.github.mcpsubscriptions.jsonrpc;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC response: either a result or an error for the request with the same id.
 *
 * @param id the id of the request answered; {@code null} when it could not be read (a
 * parse error, say), written as {@code "id": null} as JSON-RPC 2.0 requires
 * @param result the result (any object the wire mapper can write) of a successful call
 * @param error the error of a failed call
 * @since 0.1.0
 */
@JsonPropertyOrder({ "jsonrpc", "id", "result", "error" })
public record JsonRpcResponse(@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable JsonNode id, @Nullable Object result,
		@Nullable JsonRpcError error) implements JsonRpcMessage {

	public JsonRpcResponse {
		if ((result == null) == (error == null)) {
			throw new IllegalArgumentException("A response carries exactly one of result and error");
		}
	}

	public static JsonRpcResponse success(JsonNode id, Object result) {
		return new JsonRpcResponse(id, result, null);
	}

	public static JsonRpcResponse failure(@Nullable JsonNode id, JsonRpcError error) {
		return new JsonRpcResponse(id, null, error);
	}

	@JsonProperty("jsonrpc")
	String jsonrpc() {
		return VERSION;
	}

}
