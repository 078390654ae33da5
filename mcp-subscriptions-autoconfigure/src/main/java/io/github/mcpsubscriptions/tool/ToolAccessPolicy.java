package io.github.mcpsubscriptions.tool;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

/**
 * Decides who may call a tool; a tool a caller may not call is also left out of the
 * {@code tools/list} it gets, and calling it is answered as for an unknown tool.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ToolAccessPolicy {

	/** Everyone who reached the endpoint may call every tool. */
	ToolAccessPolicy PERMIT_ALL = (principal, tool) -> true;

	/**
	 * Whether a caller may call (and see) a tool.
	 * @param principal the caller, or {@code null}
	 * @param tool the tool
	 * @return whether it may
	 */
	boolean canCall(@Nullable Principal principal, McpTool tool);

}
