package io.github.mcpsubscriptions.prompt;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What {@code prompts/list} says of a prompt.
 *
 * @param name the unique name a client gets it by
 * @param title a display name, or {@code null}
 * @param description what the prompt is for, or {@code null}
 * @param arguments the arguments it takes, in order
 * @since 0.1.0
 */
public record PromptDefinition(String name, @Nullable String title, @Nullable String description,
		List<PromptArgument> arguments) {

	public PromptDefinition {
		if (name.isEmpty() || name.length() > 128) {
			throw new IllegalArgumentException("A prompt name must have 1 to 128 characters, was '" + name + "'");
		}
		arguments = List.copyOf(arguments);
		Set<String> names = new HashSet<>();
		for (PromptArgument argument : arguments) {
			if (!names.add(argument.name())) {
				throw new IllegalArgumentException(
						"Prompt '" + name + "' declares the argument '" + argument.name() + "' twice");
			}
		}
	}

	/**
	 * A prompt with a name, a description and arguments only.
	 * @param name the name
	 * @param description the description
	 * @param arguments the arguments
	 * @return the definition
	 */
	public static PromptDefinition of(String name, @Nullable String description, PromptArgument... arguments) {
		return new PromptDefinition(name, null, description, List.of(arguments));
	}

	/**
	 * The argument of a name.
	 * @param name the name
	 * @return the argument, or {@code null}
	 */
	public @Nullable PromptArgument argument(String name) {
		for (PromptArgument argument : this.arguments) {
			if (argument.name().equals(name)) {
				return argument;
			}
		}
		return null;
	}

}
