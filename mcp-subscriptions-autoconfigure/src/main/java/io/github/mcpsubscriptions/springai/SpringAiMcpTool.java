package io.github.mcpsubscriptions.springai;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.BiFunction;

import io.github.mcpsubscriptions.tool.McpTool;
import io.github.mcpsubscriptions.tool.ToolCall;
import io.github.mcpsubscriptions.tool.ToolDefinition;
import io.github.mcpsubscriptions.tool.ToolResult;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * A method annotated with Spring AI's {@code @McpTool}, served through Spring AI's own
 * stateless callback, so its parameters ({@code @McpToolParam}, {@code @McpMeta},
 * {@code @McpProgressToken}, {@code CallToolRequest}, …) are bound and its result
 * converted exactly as Spring AI's server does. Its annotations and {@code _meta} (from
 * {@code metaProvider}) are served in {@code tools/list}.
 */
final class SpringAiMcpTool implements McpTool {

	private final ToolDefinition definition;

	private final BiFunction<McpTransportContext, McpSchema.CallToolRequest, McpSchema.CallToolResult> handler;

	private final Method method;

	private final Object target;

	SpringAiMcpTool(McpSchema.Tool tool,
			BiFunction<McpTransportContext, McpSchema.CallToolRequest, McpSchema.CallToolResult> handler, Method method,
			Object target) {
		this.definition = new ToolDefinition(tool.name(), tool.title(), tool.description(),
				McpSchemaConversions.toJson(tool.inputSchema()),
				(tool.outputSchema() != null) ? McpSchemaConversions.toJson(tool.outputSchema()) : null,
				McpSchemaConversions.toolAnnotations(tool.annotations()),
				McpSchemaConversions.objectOrNull(tool.meta()));
		this.handler = handler;
		this.method = method;
		this.target = target;
	}

	@Override
	public ToolDefinition getDefinition() {
		return this.definition;
	}

	@Override
	public ToolResult call(ToolCall call) {
		Map<String, Object> arguments = McpSchemaConversions.readObject(call.arguments());
		// The client's _meta as it sent it: Spring AI's @McpMeta parameter reads it, and
		// @McpProgressToken its progressToken.
		Map<String, Object> meta = (call.meta() != null) ? McpSchemaConversions.readObject(call.meta()) : null;
		McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(this.definition.name(), arguments, meta);
		return McpSchemaConversions.toolResult(this.handler.apply(SpringAiContexts.of(call.principal()), request));
	}

	@Override
	public @Nullable Method getMethod() {
		return this.method;
	}

	@Override
	public @Nullable Object getTarget() {
		return this.target;
	}

	@Override
	public String toString() {
		return "Spring AI @McpTool '" + this.definition.name() + "'";
	}

}
