package io.github.mcpsubscriptions.tool;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A tool with its schemas parsed, as the registry holds it.
 *
 * @param tool the tool
 * @param inputSchema its input schema
 * @param outputSchema its output schema, or {@code null}
 * @param annotations its annotations, or {@code null}
 * @param meta its {@code _meta}, or {@code null}
 * @since 0.1.0
 */
public record RegisteredTool(McpTool tool, JsonNode inputSchema, @Nullable JsonNode outputSchema,
		@Nullable JsonNode annotations, @Nullable JsonNode meta) {

	private static final JsonMapper json = JsonMapper.builder().build();

	static RegisteredTool of(McpTool tool) {
		ToolDefinition definition = tool.getDefinition();
		JsonNode input = parse(definition.name(), "input schema", definition.inputSchema());
		JsonNode output = (definition.outputSchema() != null)
				? parse(definition.name(), "output schema", definition.outputSchema()) : null;
		JsonNode annotations = (definition.annotations() != null)
				? parse(definition.name(), "annotations", definition.annotations()) : null;
		JsonNode meta = (definition.meta() != null) ? parse(definition.name(), "_meta", definition.meta()) : null;
		return new RegisteredTool(tool, input, output, annotations, meta);
	}

	private static JsonNode parse(String name, String which, String schema) {
		JsonNode node;
		try {
			node = json.readTree(schema);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("The " + which + " of MCP tool '" + name + "' is not JSON", ex);
		}
		if (node == null || !node.isObject()) {
			throw new IllegalArgumentException("The " + which + " of MCP tool '" + name + "' must be a JSON object");
		}
		return node;
	}

	/**
	 * The tool's name.
	 * @return the name
	 */
	public String name() {
		return this.tool.getDefinition().name();
	}

	/**
	 * The tool's definition.
	 * @return the definition
	 */
	public ToolDefinition definition() {
		return this.tool.getDefinition();
	}

}
