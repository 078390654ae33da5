package io.github.mcpsubscriptions.tool;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

/**
 * One call of a tool, its arguments already validated against the tool's input schema.
 *
 * @param arguments the arguments, a JSON object as text
 * @param principal the caller, or {@code null}
 * @param progress reports progress and log messages to the caller while the tool runs
 * @since 0.1.0
 */
public record ToolCall(String arguments, @Nullable Principal principal, ToolCallProgress progress) {

}
