package io.github.mcpsubscriptions.tool;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a tool call answers: content blocks for the model, optionally a structured result,
 * and whether the call failed in a way the model should read (a tool error, not a
 * protocol error).
 *
 * @param content the content blocks, each a JSON object
 * ({@code {"type":"text","text":…}}, {@code image}, {@code audio}, {@code resource}, …)
 * @param structuredContent the result as JSON text (an object), for tools that declare an
 * output schema, or {@code null}
 * @param error whether the call failed
 * @since 0.1.0
 */
public record ToolResult(List<Map<String, Object>> content, @Nullable String structuredContent, boolean error) {

	public ToolResult {
		content = List.copyOf(content);
	}

	/**
	 * A successful result of one text block.
	 * @param text the text
	 * @return the result
	 */
	public static ToolResult text(String text) {
		return new ToolResult(List.of(textBlock(text)), null, false);
	}

	/**
	 * A failed result whose text the model can read.
	 * @param message what went wrong
	 * @return the result
	 */
	public static ToolResult error(String message) {
		return new ToolResult(List.of(textBlock(message)), null, true);
	}

	/**
	 * A text content block.
	 * @param text the text
	 * @return the block
	 */
	public static Map<String, Object> textBlock(String text) {
		return Map.of("type", "text", "text", text);
	}

}
