package io.github.mcpsubscriptions.prompt;

import org.jspecify.annotations.Nullable;

/**
 * An argument of a prompt, as {@code prompts/list} describes it.
 *
 * @param name the name
 * @param title a display name, or {@code null}
 * @param description what the argument is, or {@code null}
 * @param required whether {@code prompts/get} must name it
 * @since 0.1.0
 */
public record PromptArgument(String name, @Nullable String title, @Nullable String description, boolean required) {

	public PromptArgument {
		if (name.isEmpty()) {
			throw new IllegalArgumentException("A prompt argument needs a name");
		}
	}

	/**
	 * A required argument.
	 * @param name the name
	 * @param description the description, or {@code null}
	 * @return the argument
	 */
	public static PromptArgument required(String name, @Nullable String description) {
		return new PromptArgument(name, null, description, true);
	}

	/**
	 * An optional argument.
	 * @param name the name
	 * @param description the description, or {@code null}
	 * @return the argument
	 */
	public static PromptArgument optional(String name, @Nullable String description) {
		return new PromptArgument(name, null, description, false);
	}

}
