package io.github.mcpsubscriptions.jsonrpc;

/**
 * One JSON-RPC 2.0 message: a request, a notification or a response.
 *
 * @since 0.1.0
 */
public sealed interface JsonRpcMessage permits JsonRpcRequest, JsonRpcNotification, JsonRpcResponse {

	/** The only protocol version this library speaks. */
	String VERSION = "2.0";

}
