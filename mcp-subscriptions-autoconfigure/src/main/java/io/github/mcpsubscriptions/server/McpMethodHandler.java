package io.github.mcpsubscriptions.server;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Handles one MCP request method.
 */
@FunctionalInterface
interface McpMethodHandler {

	/**
	 * Handle a request.
	 * @param exchange the request's context
	 * @param params the request's params, or {@code null}
	 * @return the result, any object the wire mapper can write
	 * @throws JsonRpcException to answer with an error
	 */
	Object handle(McpExchange exchange, @Nullable ObjectNode params);

}
