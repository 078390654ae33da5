package io.github.mcpsubscriptions.aot;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcError;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcRequest;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcResponse;
import io.github.mcpsubscriptions.resource.BlobResourceContents;
import io.github.mcpsubscriptions.resource.ResourceAnnotations;
import io.github.mcpsubscriptions.resource.ResourceDescriptor;
import io.github.mcpsubscriptions.resource.ResourceInstance;
import io.github.mcpsubscriptions.resource.TextResourceContents;
import io.github.mcpsubscriptions.server.McpServerInfo;
import io.github.mcpsubscriptions.tool.ToolDefinition;
import io.github.mcpsubscriptions.tool.ToolResult;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Binding hints for the starter's own types that its Jackson 3 mapper writes (or reads)
 * by reflection.
 *
 * @since 0.1.0
 */
public class McpRuntimeHints implements RuntimeHintsRegistrar {

	static final Class<?>[] JSON_TYPES = { JsonRpcRequest.class, JsonRpcResponse.class, JsonRpcNotification.class,
			JsonRpcError.class, McpServerInfo.class, ResourceDescriptor.class, ResourceInstance.class,
			ResourceAnnotations.class, TextResourceContents.class, BlobResourceContents.class, ToolDefinition.class,
			ToolResult.class };

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), JSON_TYPES);
	}

}
