package io.github.mcpsubscriptions.jsonrpc;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON-RPC request: it has an id (a string or an integer, never {@code null}) and
 * expects a response.
 *
 * @param id the request id, kept as the client sent it so the response echoes it exactly
 * @param method the method name
 * @param params the parameters, or {@code null} when the request has none
 * @since 0.1.0
 */
@JsonPropertyOrder({ "jsonrpc", "id", "method", "params" })
public record JsonRpcRequest(JsonNode id, String method, @Nullable ObjectNode params) implements JsonRpcMessage {

	@JsonProperty("jsonrpc")
	String jsonrpc() {
		return VERSION;
	}

}
