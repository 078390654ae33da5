package io.github.mcpsubscriptions.springai;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

import io.github.mcpsubscriptions.tool.McpTool;
import io.github.mcpsubscriptions.tool.ToolCall;
import io.github.mcpsubscriptions.tool.ToolDefinition;
import io.github.mcpsubscriptions.tool.ToolResult;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.method.MethodToolCallback;
import org.springframework.util.ReflectionUtils;

/**
 * A Spring AI {@link ToolCallback} as an MCP tool. Its definition gives the name,
 * description and input schema (Spring AI has no title or output schema); its result, a
 * string, is the text of the tool result, unquoted when Spring AI wrote a plain string as
 * a JSON string literal (which is what its default result converter does with a
 * {@code String} return value).
 *
 * @since 0.1.0
 */
public class SpringAiTool implements McpTool {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final @Nullable Field TOOL_METHOD = field("toolMethod");

	private static final @Nullable Field TOOL_OBJECT = field("toolObject");

	private final ToolCallback callback;

	private final ToolDefinition definition;

	/**
	 * Adapt a callback.
	 * @param callback the callback
	 */
	public SpringAiTool(ToolCallback callback) {
		this.callback = callback;
		org.springframework.ai.tool.definition.ToolDefinition source = callback.getToolDefinition();
		this.definition = new ToolDefinition(source.name(), null, source.description(), source.inputSchema(), null);
	}

	@Override
	public ToolDefinition getDefinition() {
		return this.definition;
	}

	@Override
	public ToolResult call(ToolCall call) {
		String result = this.callback.call(call.arguments());
		return ToolResult.text(unquote(result));
	}

	@Override
	public @Nullable Method getMethod() {
		return (Method) read(TOOL_METHOD);
	}

	@Override
	public @Nullable Object getTarget() {
		return read(TOOL_OBJECT);
	}

	/**
	 * The adapted callback.
	 * @return the callback
	 */
	public ToolCallback getCallback() {
		return this.callback;
	}

	private @Nullable Object read(@Nullable Field field) {
		// MethodToolCallback does not expose its method; an access policy needs it to
		// judge
		// the method's @PreAuthorize. Other callbacks have no method: no method rule
		// applies.
		if (field == null || !(this.callback instanceof MethodToolCallback)) {
			return null;
		}
		return ReflectionUtils.getField(field, this.callback);
	}

	private static @Nullable Field field(String name) {
		Field field = ReflectionUtils.findField(MethodToolCallback.class, name);
		if (field != null) {
			ReflectionUtils.makeAccessible(field);
		}
		return field;
	}

	static String unquote(@Nullable String result) {
		if (result == null) {
			return "";
		}
		if (result.length() >= 2 && result.startsWith("\"") && result.endsWith("\"")) {
			try {
				JsonNode node = json.readTree(result);
				if (node != null && node.isString()) {
					return node.stringValue();
				}
			}
			catch (JacksonException ex) {
				// Not a JSON string literal: the text as it is.
			}
		}
		return result;
	}

	@Override
	public String toString() {
		return "Spring AI tool '" + this.definition.name() + "'";
	}

}
