/**
 * Spring AI integration: serves Spring AI's tools ({@code ToolCallback} and
 * {@code ToolCallbackProvider} beans, {@code @Tool} methods) as MCP tools. Depends on the
 * {@code tool} package; nothing else depends on this one.
 */
@NullMarked
package io.github.mcpsubscriptions.springai;

import org.jspecify.annotations.NullMarked;
