package io.github.mcpsubscriptions.jsonrpc;

import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes the MCP wire format with a private {@link JsonMapper}, so that an
 * application's Jackson customizations can never change the protocol.
 *
 * @since 0.1.0
 */
public final class JsonRpcCodec {

	private final JsonMapper mapper;

	public JsonRpcCodec() {
		this.mapper = JsonMapper.builder()
			.changeDefaultPropertyInclusion((inclusion) -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL))
			.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
			.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.build();
	}

	/**
	 * Parse a request body into a JSON tree.
	 * @param body the bytes received
	 * @return the tree
	 * @throws InvalidMessageException with {@link JsonRpcErrorCodes#PARSE_ERROR} when the
	 * body is not JSON
	 */
	public JsonNode parse(byte[] body) {
		try {
			JsonNode node = this.mapper.readTree(body);
			if (node == null || node.isMissingNode()) {
				throw new InvalidMessageException(JsonRpcErrorCodes.PARSE_ERROR, "Parse error: the body is empty",
						null);
			}
			return node;
		}
		catch (JacksonException ex) {
			throw new InvalidMessageException(JsonRpcErrorCodes.PARSE_ERROR, "Parse error: the body is not valid JSON",
					null);
		}
	}

	/**
	 * Read one JSON-RPC message from a parsed tree.
	 * @param node one element of the body
	 * @return the message
	 * @throws InvalidMessageException when the tree is not a valid JSON-RPC 2.0 message
	 */
	public JsonRpcMessage read(JsonNode node) {
		if (!node.isObject()) {
			throw invalid("A JSON-RPC message must be a JSON object", null);
		}
		JsonNode id = node.get("id");
		JsonNode validId = (id != null && isValidId(id)) ? id : null;
		JsonNode version = node.get("jsonrpc");
		if (version == null || !version.isString() || !JsonRpcMessage.VERSION.equals(version.stringValue())) {
			throw invalid("The member \"jsonrpc\" must be exactly \"2.0\"", validId);
		}
		if (id != null && validId == null) {
			throw invalid("The member \"id\" must be a string or an integer, and never null", null);
		}
		JsonNode method = node.get("method");
		if (method != null) {
			return readCall(method, node.get("params"), validId);
		}
		if (validId != null && (node.has("result") || node.has("error"))) {
			return readResponse(node, validId);
		}
		throw invalid("A JSON-RPC message needs a \"method\" (a request or notification) "
				+ "or an \"id\" with \"result\" or \"error\" (a response)", validId);
	}

	private JsonRpcMessage readCall(JsonNode method, @Nullable JsonNode params, @Nullable JsonNode id) {
		if (!method.isString() || method.stringValue().isEmpty()) {
			throw invalid("The member \"method\" must be a non-empty string", id);
		}
		ObjectNode paramsObject = null;
		if (params != null && !params.isNull()) {
			if (params.isArray()) {
				throw new InvalidMessageException(JsonRpcErrorCodes.INVALID_PARAMS,
						"MCP methods take named parameters: \"params\" must be an object", id);
			}
			if (!params.isObject()) {
				throw invalid("The member \"params\" must be an object", id);
			}
			paramsObject = (ObjectNode) params;
		}
		return (id != null) ? new JsonRpcRequest(id, method.stringValue(), paramsObject)
				: new JsonRpcNotification(method.stringValue(), paramsObject);
	}

	private JsonRpcMessage readResponse(JsonNode node, JsonNode id) {
		JsonNode result = node.get("result");
		JsonNode error = node.get("error");
		if (result != null && error != null) {
			throw invalid("A response carries either \"result\" or \"error\", not both", id);
		}
		if (result != null) {
			return JsonRpcResponse.success(id, result);
		}
		JsonNode code = error.get("code");
		JsonNode message = error.get("message");
		if (!error.isObject() || code == null || !code.canConvertToInt() || !code.isIntegralNumber() || message == null
				|| !message.isString()) {
			throw invalid("The member \"error\" must be an object with an integer \"code\" and a string \"message\"",
					id);
		}
		return JsonRpcResponse.failure(id, new JsonRpcError(code.intValue(), message.stringValue(), error.get("data")));
	}

	private static boolean isValidId(JsonNode id) {
		return id.isString() || id.isIntegralNumber();
	}

	private static InvalidMessageException invalid(String message, @Nullable JsonNode id) {
		return new InvalidMessageException(JsonRpcErrorCodes.INVALID_REQUEST, "Invalid request: " + message, id);
	}

	/**
	 * Bind request parameters to a type.
	 * @param params the parameters, or {@code null}
	 * @param type the type to bind to
	 * @param <T> the type
	 * @return the bound value
	 * @throws JsonRpcException with {@link JsonRpcErrorCodes#INVALID_PARAMS} when they do
	 * not fit
	 */
	public <T> T bind(@Nullable JsonNode params, Class<T> type) {
		try {
			return this.mapper.treeToValue((params != null) ? params : this.mapper.createObjectNode(), type);
		}
		catch (JacksonException ex) {
			// Jackson's own message names Java types: describe the failing member
			// instead.
			String path = ex.getPath()
				.stream()
				.map((ref) -> (ref.getPropertyName() != null) ? ref.getPropertyName() : "[" + ref.getIndex() + "]")
				.collect(Collectors.joining("."));
			throw JsonRpcException.invalidParams(path.isEmpty() ? "Invalid params"
					: "Invalid params: \"" + path + "\" is missing or has the wrong type");
		}
	}

	/**
	 * Write a message, or any other value, in the wire format.
	 * @param value the value
	 * @return its JSON as UTF-8 bytes
	 */
	public byte[] write(Object value) {
		return this.mapper.writeValueAsBytes(value);
	}

	/**
	 * Write a message, or any other value, in the wire format.
	 * @param value the value
	 * @return its JSON, on one line
	 */
	public String writeAsString(Object value) {
		return this.mapper.writeValueAsString(value);
	}

	/**
	 * Convert a value to a JSON tree with the wire mapper.
	 * @param value the value
	 * @return the tree
	 */
	public JsonNode toTree(@Nullable Object value) {
		return this.mapper.valueToTree(value);
	}

	public ObjectNode createObjectNode() {
		return this.mapper.createObjectNode();
	}

}
