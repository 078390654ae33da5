/**
 * Tools: what a tool is ({@link io.github.mcpsubscriptions.tool.McpTool}), the registry
 * of the tools the server offers, input validation, and the extension points that decide
 * who may call a tool and observe the calls. Knows nothing of Spring AI: integrations
 * adapt their tools to {@link io.github.mcpsubscriptions.tool.McpTool}.
 */
@NullMarked
package io.github.mcpsubscriptions.tool;

import org.jspecify.annotations.NullMarked;
