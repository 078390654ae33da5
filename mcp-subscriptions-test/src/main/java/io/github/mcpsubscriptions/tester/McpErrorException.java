package io.github.mcpsubscriptions.tester;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC error the server answered a request with, such as {@code -32002} (resource
 * not found, 2025 era) or {@code -32602} (invalid params; not found in the 2026 era).
 *
 * @since 0.1.0
 */
public class McpErrorException extends RuntimeException {

	private final int code;

	private final String errorMessage;

	private final @Nullable JsonNode data;

	private final int httpStatus;

	McpErrorException(String method, int code, String errorMessage, @Nullable JsonNode data, int httpStatus) {
		super("JSON-RPC error " + code + " on " + method + " (HTTP " + httpStatus + "): " + errorMessage
				+ ((data != null) ? " " + data : ""));
		this.code = code;
		this.errorMessage = errorMessage;
		this.data = data;
		this.httpStatus = httpStatus;
	}

	/**
	 * The JSON-RPC error code.
	 * @return the code
	 */
	public int code() {
		return this.code;
	}

	/**
	 * The error's {@code message} member.
	 * @return the message as the server wrote it
	 */
	public String errorMessage() {
		return this.errorMessage;
	}

	/**
	 * The error's {@code data} member.
	 * @return the data, or {@code null} if there is none
	 */
	public @Nullable JsonNode data() {
		return this.data;
	}

	/**
	 * The HTTP status of the response that carried the error.
	 * @return the status
	 */
	public int httpStatus() {
		return this.httpStatus;
	}

}
