package io.github.mcpsubscriptions.jsonrpc;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;

/**
 * A JSON-RPC notification: a method call without an id, which is never answered.
 *
 * @param method the method name
 * @param params the parameters (any object the wire mapper can write), or {@code null}
 * @since 0.1.0
 */
@JsonPropertyOrder({ "jsonrpc", "method", "params" })
public record JsonRpcNotification(String method, @Nullable Object params) implements JsonRpcMessage {

	@JsonProperty("jsonrpc")
	String jsonrpc() {
		return VERSION;
	}

}
