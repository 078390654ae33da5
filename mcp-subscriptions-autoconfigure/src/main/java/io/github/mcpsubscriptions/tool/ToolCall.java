package io.github.mcpsubscriptions.tool;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

/**
 * One call of a tool, its arguments already validated against the tool's input schema.
 *
 * @param arguments the arguments, a JSON object as text
 * @param principal the caller, or {@code null}
 * @param progress reports progress and log messages to the caller while the tool runs
 * @param meta the request's {@code _meta} as the client sent it (a JSON object as text,
 * with its {@code progressToken} when the client asked for progress), or {@code null}
 * when it sent none
 * @since 0.1.0
 */
public record ToolCall(String arguments, @Nullable Principal principal, ToolCallProgress progress,
		@Nullable String meta) {

	/**
	 * A call without {@code _meta}.
	 * @param arguments the arguments, a JSON object as text
	 * @param principal the caller, or {@code null}
	 * @param progress reports progress and log messages to the caller
	 */
	public ToolCall(String arguments, @Nullable Principal principal, ToolCallProgress progress) {
		this(arguments, principal, progress, null);
	}

}
