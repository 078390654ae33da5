/**
 * Spring AI integration: serves Spring AI's tools ({@code ToolCallback} and
 * {@code ToolCallbackProvider} beans, {@code @Tool} methods) as MCP tools, and the
 * methods annotated with Spring AI's MCP server annotations ({@code @McpTool},
 * {@code @McpResource}, {@code @McpPrompt}, {@code @McpComplete}) as this server's tools,
 * resources and prompts. Depends on the {@code tool}, {@code resource} and {@code prompt}
 * packages; nothing else depends on this one.
 */
@NullMarked
package io.github.mcpsubscriptions.springai;

import org.jspecify.annotations.NullMarked;
