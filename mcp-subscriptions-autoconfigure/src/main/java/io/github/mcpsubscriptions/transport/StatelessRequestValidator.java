package io.github.mcpsubscriptions.transport;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Set;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcError;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcRequest;
import io.github.mcpsubscriptions.session.ProtocolVersions;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;

/**
 * Checks a stateless (2026-07-28) request before dispatch, in the order the
 * specification's conformance suite expects: the standard headers are present
 * ({@code -32020}), {@code _meta} has the required fields ({@code -32602}), the version
 * header matches {@code _meta} ({@code -32020}), the version is supported
 * ({@code -32022}), and {@code Mcp-Method} and {@code Mcp-Name} match the body
 * ({@code -32020}). Every refusal is a 400.
 */
final class StatelessRequestValidator {

	static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

	static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

	static final String METHOD_HEADER = "Mcp-Method";

	static final String NAME_HEADER = "Mcp-Name";

	/** The 2026-07-28 error for a header that is missing or disagrees with the body. */
	static final int HEADER_MISMATCH = -32020;

	/** The 2026-07-28 error for a protocol version the server does not speak. */
	static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

	/** Methods whose {@code Mcp-Name} header carries a parameter, and which. */
	private static final Map<String, String> NAMED = Map.of("resources/read", "uri", "tools/call", "name",
			"prompts/get", "name");

	private static final Set<String> STATELESS_VERSIONS = Set.of(ProtocolVersions.V2026_07_28);

	private StatelessRequestValidator() {
	}

	/**
	 * Whether a request without a session belongs to the stateless era: it names a
	 * 2026-era version in its {@code MCP-Protocol-Version} header or its {@code _meta},
	 * or a version header that is not a 2025-era one, or (without a version header)
	 * carries a version in {@code _meta}. The routing table of docs/protocol-2026.md
	 * lists every case.
	 */
	static boolean isStateless(HttpServletRequest request, @Nullable JsonNode params) {
		if (namesStatelessVersion(request, params)) {
			return true;
		}
		String header = request.getHeader(McpHeaders.PROTOCOL_VERSION);
		if (header != null) {
			return !ProtocolVersions.isSessionEra(header.strip());
		}
		return metaVersion(params) != null;
	}

	/**
	 * Whether a request names the stateless era explicitly, in its header or its
	 * {@code _meta}: such a request ignores any {@code Mcp-Session-Id} it carries, and is
	 * refused ({@code -32020}) when the other of the two names another version — the 2026
	 * transport requires them to match, so a 2025 header does not make it a session
	 * request.
	 */
	static boolean namesStatelessVersion(HttpServletRequest request, @Nullable JsonNode params) {
		String header = request.getHeader(McpHeaders.PROTOCOL_VERSION);
		String meta = metaVersion(params);
		return (header != null && STATELESS_VERSIONS.contains(header.strip()))
				|| (meta != null && STATELESS_VERSIONS.contains(meta));
	}

	static void validate(HttpServletRequest request, JsonRpcRequest message) {
		String versionHeader = header(request, McpHeaders.PROTOCOL_VERSION);
		String methodHeader = header(request, METHOD_HEADER);
		if (versionHeader == null) {
			throw mismatch("Header mismatch: the MCP-Protocol-Version header is required");
		}
		if (methodHeader == null) {
			throw mismatch("Header mismatch: the Mcp-Method header is required");
		}
		JsonNode meta = (message.params() != null) ? message.params().get("_meta") : null;
		if (meta == null || !meta.isObject()) {
			throw invalidMeta("\"_meta\" is required");
		}
		JsonNode version = meta.get(META_PROTOCOL_VERSION);
		if (version == null || !version.isString()) {
			throw invalidMeta("\"_meta\" must carry \"" + META_PROTOCOL_VERSION + "\"");
		}
		JsonNode capabilities = meta.get(META_CLIENT_CAPABILITIES);
		if (capabilities == null || !capabilities.isObject()) {
			throw invalidMeta("\"_meta\" must carry \"" + META_CLIENT_CAPABILITIES + "\"");
		}
		if (!versionHeader.equals(version.stringValue())) {
			throw mismatch("Header mismatch: MCP-Protocol-Version header value '" + versionHeader
					+ "' does not match _meta value '" + version.stringValue() + "'");
		}
		if (!STATELESS_VERSIONS.contains(versionHeader)) {
			throw new McpHttpException(HttpStatus.BAD_REQUEST,
					new JsonRpcError(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version",
							Map.of("supported", ProtocolVersions.ALL, "requested", versionHeader)));
		}
		if (!methodHeader.equals(message.method())) {
			throw mismatch("Header mismatch: Mcp-Method header value '" + methodHeader + "' does not match body value '"
					+ message.method() + "'");
		}
		String named = NAMED.get(message.method());
		if (named != null) {
			JsonNode value = message.params().get(named);
			String nameHeader = header(request, NAME_HEADER);
			if (nameHeader == null) {
				throw mismatch("Header mismatch: the Mcp-Name header is required for " + message.method());
			}
			String decoded = decodeName(nameHeader);
			if (value != null && value.isString() && !value.stringValue().equals(decoded)) {
				throw mismatch("Header mismatch: Mcp-Name header value does not match body value of \"" + named + "\"");
			}
		}
	}

	private static @Nullable String metaVersion(@Nullable JsonNode params) {
		JsonNode meta = (params != null) ? params.get("_meta") : null;
		JsonNode version = (meta != null) ? meta.get(META_PROTOCOL_VERSION) : null;
		return (version != null && version.isString()) ? version.stringValue() : null;
	}

	/** A header's value without the optional whitespace HTTP allows around it. */
	private static @Nullable String header(HttpServletRequest request, String name) {
		String value = request.getHeader(name);
		if (value == null) {
			return null;
		}
		for (int i = 0; i < value.length(); i++) {
			char character = value.charAt(i);
			if ((character < 0x20 && character != '\t') || character == 0x7F) {
				throw mismatch("Header mismatch: the " + name + " header holds invalid characters");
			}
		}
		return value.strip();
	}

	/** {@code =?base64?...?=} carries values that are not plain ASCII. */
	private static String decodeName(String value) {
		if (value.startsWith("=?base64?") && value.endsWith("?=") && value.length() >= 11) {
			try {
				return new String(Base64.getDecoder().decode(value.substring(9, value.length() - 2)),
						StandardCharsets.UTF_8);
			}
			catch (IllegalArgumentException ex) {
				throw mismatch("Header mismatch: the Mcp-Name header is not valid Base64");
			}
		}
		return value;
	}

	private static McpHttpException mismatch(String message) {
		return new McpHttpException(HttpStatus.BAD_REQUEST, HEADER_MISMATCH, message);
	}

	private static McpHttpException invalidMeta(String what) {
		return new McpHttpException(HttpStatus.BAD_REQUEST, JsonRpcErrorCodes.INVALID_PARAMS,
				"Invalid params: " + what);
	}

}
