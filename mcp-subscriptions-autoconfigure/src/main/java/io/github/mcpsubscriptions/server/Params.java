package io.github.mcpsubscriptions.server;

import java.util.Map;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads request parameters, answering {@code -32602} with a message that names the member
 * when one is missing or has the wrong type.
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

	/**
	 * Refuse a value the server would keep (for a session's or a stream's lifetime) when
	 * its JSON is longer than {@code maxChars}: kept client data must not be able to
	 * exhaust the heap.
	 */
	static <T extends JsonNode> T requireKeepable(T value, String name, int maxChars) {
		if (jsonLength(value, maxChars) > maxChars) {
			throw new JsonRpcException(JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: \"" + name
					+ "\" is too large: the server keeps it, and keeps at most " + maxChars + " characters of JSON",
					Map.of("limit", maxChars));
		}
		return value;
	}

	/**
	 * About the length of a value's JSON (quotes, separators and escapes aside), counting
	 * no further than past {@code max}.
	 */
	private static long jsonLength(JsonNode value, long max) {
		if (value.isString()) {
			return value.stringValue().length() + 2;
		}
		if (!value.isContainer()) {
			return value.toString().length();
		}
		long length = 2;
		if (value.isObject()) {
			for (Map.Entry<String, JsonNode> member : value.properties()) {
				length += member.getKey().length() + 4 + jsonLength(member.getValue(), max - length);
				if (length > max) {
					return length;
				}
			}
		}
		else {
			for (JsonNode element : value) {
				length += 1 + jsonLength(element, max - length);
				if (length > max) {
					return length;
				}
			}
		}
		return length;
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
