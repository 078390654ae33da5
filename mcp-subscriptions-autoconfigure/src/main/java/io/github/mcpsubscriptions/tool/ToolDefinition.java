package io.github.mcpsubscriptions.tool;

import org.jspecify.annotations.Nullable;

/**
 * What {@code tools/list} says of a tool.
 *
 * @param name the unique name a client calls it by
 * @param title a display name, or {@code null}
 * @param description what the tool does, for the model, or {@code null}
 * @param inputSchema the JSON Schema of its arguments (a JSON object, as text)
 * @param outputSchema the JSON Schema of its structured result (as text), or {@code null}
 * when the result is only text
 * @since 0.1.0
 */
public record ToolDefinition(String name, @Nullable String title, @Nullable String description, String inputSchema,
		@Nullable String outputSchema) {

	/** The schema of a tool without arguments. */
	public static final String NO_ARGUMENTS = "{\"type\":\"object\",\"properties\":{}}";

	public ToolDefinition {
		if (name.isEmpty() || name.length() > 128) {
			throw new IllegalArgumentException("A tool name must have 1 to 128 characters, was '" + name + "'");
		}
	}

	/**
	 * A tool with a name, a description and an input schema only.
	 * @param name the name
	 * @param description the description
	 * @param inputSchema the input schema
	 * @return the definition
	 */
	public static ToolDefinition of(String name, @Nullable String description, String inputSchema) {
		return new ToolDefinition(name, null, description, inputSchema, null);
	}

}
