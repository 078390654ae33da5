package io.github.mcpsubscriptions.tool;

import java.lang.reflect.Method;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * A tool the server offers. Integrations adapt their tools to this (see the
 * {@code springai} package); applications may implement it directly and register it with
 * the {@link ToolRegistry}.
 *
 * @since 0.1.0
 */
public interface McpTool {

	/**
	 * What {@code tools/list} says of the tool.
	 * @return the definition
	 */
	ToolDefinition getDefinition();

	/**
	 * Run the tool. Throwing is fine: the caller gets a tool error with a safe message
	 * and the exception is logged.
	 * @param call the arguments and the caller
	 * @return the result
	 * @throws Exception when the tool fails
	 */
	ToolResult call(ToolCall call) throws Exception;

	/**
	 * The client capabilities the tool needs (such as {@code sampling}); a caller that
	 * did not declare one of them is refused before the tool runs.
	 * @return the capability names
	 */
	default Set<String> getRequiredClientCapabilities() {
		return Set.of();
	}

	/**
	 * The method the tool runs, whose annotations (such as {@code @PreAuthorize}) an
	 * access policy may judge.
	 * @return the method, or {@code null}
	 */
	default @Nullable Method getMethod() {
		return null;
	}

	/**
	 * The object the method is called on.
	 * @return the target, or {@code null}
	 */
	default @Nullable Object getTarget() {
		return null;
	}

}
