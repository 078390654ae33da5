package io.github.mcpsubscriptions.server;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads request parameters, answering {@code -32602} with a message that names the
 * member when one is missing or has the wrong type.
 */
final class Params {

	private Params() {
	}

	static String requireString(@Nullable JsonNode params, String name) {
		JsonNode value = (params != null) ? params.get(name) : null;
		if (value == null || value.isNull()) {
			throw JsonRpcException.invalidParams("Invalid params: \"" + name + "\" is required");
		}
		if (!value.isString()) {
			throw JsonRpcException.invalidParams("Invalid params: \"" + name + "\" must be a string");
		}
		return value.stringValue();
	}

	static ObjectNode requireObject(@Nullable JsonNode params, String name) {
		JsonNode value = (params != null) ? params.get(name) : null;
		if (value == null || value.isNull()) {
			throw JsonRpcException.invalidParams("Invalid params: \"" + name + "\" is required");
		}
		if (!value.isObject()) {
			throw JsonRpcException.invalidParams("Invalid params: \"" + name + "\" must be an object");
		}
		return (ObjectNode) value;
	}

	static @Nullable String optionalString(@Nullable JsonNode params, String name) {
		JsonNode value = (params != null) ? params.get(name) : null;
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isString()) {
			throw JsonRpcException.invalidParams("Invalid params: \"" + name + "\" must be a string");
		}
		return value.stringValue();
	}

}
