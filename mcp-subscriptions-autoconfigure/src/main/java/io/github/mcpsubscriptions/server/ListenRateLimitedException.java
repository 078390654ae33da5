package io.github.mcpsubscriptions.server;

import java.time.Duration;
import java.util.Map;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;

/**
 * A listen request refused because its client re-listens too often ({@code -32000}); the
 * transport answers it with HTTP 429 and {@code Retry-After}.
 *
 * @since 0.1.0
 */
public class ListenRateLimitedException extends JsonRpcException {

	private final Duration retryAfter;

	ListenRateLimitedException(int requests, Duration window, Duration retryAfter) {
		super(JsonRpcErrorCodes.SERVER_ERROR,
				"Too many listen requests: at most " + requests + " per " + window + " for one client; retry after "
						+ seconds(retryAfter) + " s (mcp.listen.rate-limit.requests)",
				Map.of("limit", "mcp.listen.rate-limit.requests", "value", requests, "retryAfterSeconds",
						seconds(retryAfter)));
		this.retryAfter = retryAfter;
	}

	/**
	 * How long the client should wait, in whole seconds (at least one), as sent in
	 * {@code Retry-After}.
	 * @return the seconds
	 */
	public long getRetryAfterSeconds() {
		return seconds(this.retryAfter);
	}

	private static long seconds(Duration duration) {
		return Math.max(1, (duration.toMillis() + 999) / 1000);
	}

}
