package io.github.mcpsubscriptions.server;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Told of every JSON-RPC request the server answered, in either protocol era, and how
 * long it took: for metrics. Runs on the request's thread, so it must be quick.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface McpRequestObserver {

	/** Observes nothing. */
	McpRequestObserver NONE = (answered) -> {
	};

	/**
	 * A request was answered (or failed with an exception the transport answers).
	 * @param answered what was asked and how it ended
	 */
	void answered(Answered answered);

	/**
	 * An answered request.
	 *
	 * @param method the method, or {@code null} if the server has no such method (what a
	 * client sends there is unbounded)
	 * @param protocolVersion the protocol version of the exchange, or {@code null} when
	 * it is not known (an {@code initialize} that failed)
	 * @param toolName the tool a {@code tools/call} named, if it is registered; else
	 * {@code null}
	 * @param errorCode the JSON-RPC error code of the answer, or {@code null} for a
	 * result
	 * @param toolError whether a {@code tools/call} result reports a tool error
	 * @param exception the exception the transport answers instead (a session limit, an
	 * unavailable store), or {@code null}
	 * @param duration from receipt to answer
	 */
	record Answered(@Nullable String method, @Nullable String protocolVersion, @Nullable String toolName,
			@Nullable Integer errorCode, boolean toolError, @Nullable Class<? extends Throwable> exception,
			Duration duration) {
	}

}
