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
 * @param annotations the hints {@code tools/list} gives of its behaviour
 * ({@code readOnlyHint}, {@code destructiveHint}, {@code idempotentHint},
 * {@code openWorldHint}, {@code title}; a JSON object as text), or {@code null}
 * @param meta the tool's {@code _meta} in {@code tools/list} (a JSON object as text), or
 * {@code null}
 * @since 0.1.0
 */
public record ToolDefinition(String name, @Nullable String title, @Nullable String description, String inputSchema,
		@Nullable String outputSchema, @Nullable String annotations, @Nullable String meta) {

	/** The schema of a tool without arguments. */
	public static final String NO_ARGUMENTS = "{\"type\":\"object\",\"properties\":{}}";

	public ToolDefinition {
		if (name.isEmpty() || name.length() > 128) {
			throw new IllegalArgumentException("A tool name must have 1 to 128 characters, was '" + name + "'");
		}
	}

	/**
	 * A tool without annotations or {@code _meta}.
	 * @param name the name
	 * @param title a display name, or {@code null}
	 * @param description what the tool does, or {@code null}
	 * @param inputSchema the input schema
	 * @param outputSchema the output schema, or {@code null}
	 */
	public ToolDefinition(String name, @Nullable String title, @Nullable String description, String inputSchema,
			@Nullable String outputSchema) {
		this(name, title, description, inputSchema, outputSchema, null, null);
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
