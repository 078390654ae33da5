package io.github.mcpsubscriptions.tester;

import java.net.http.HttpHeaders;
import java.util.Optional;

/**
 * An HTTP answer that is not MCP, such as {@code 401} from a secured endpoint without a
 * valid token, or {@code 404} for a session that has ended.
 *
 * @since 0.1.0
 */
public class McpHttpException extends RuntimeException {

	private final int status;

	private final String body;

	private final HttpHeaders headers;

	McpHttpException(String what, int status, String body, HttpHeaders headers) {
		super(what + " was answered with HTTP " + status
				+ headers.firstValue("WWW-Authenticate").map((value) -> " (WWW-Authenticate: " + value + ")").orElse("")
				+ (body.isEmpty() ? "" : ": " + McpTester.abbreviate(body)));
		this.status = status;
		this.body = body;
		this.headers = headers;
	}

	/**
	 * The HTTP status.
	 * @return the status
	 */
	public int status() {
		return this.status;
	}

	/**
	 * The response body.
	 * @return the body, empty if there was none
	 */
	public String body() {
		return this.body;
	}

	/**
	 * A response header.
	 * @param name the header's name
	 * @return its first value, if the response has it
	 */
	public Optional<String> header(String name) {
		return this.headers.firstValue(name);
	}

}
