package io.github.mcpsubscriptions.prompt;

import java.security.Principal;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A {@code prompts/get} as a prompt sees it.
 *
 * @param name the prompt's name
 * @param arguments the arguments the client gave, by name
 * @param principal the caller, or {@code null}
 * @since 0.1.0
 */
public record PromptRequest(String name, Map<String, String> arguments, @Nullable Principal principal) {

	public PromptRequest {
		arguments = Map.copyOf(arguments);
	}

	/**
	 * An argument's value.
	 * @param name the argument's name
	 * @return the value, or {@code null} when the client left it out
	 */
	public @Nullable String argument(String name) {
		return this.arguments.get(name);
	}

}
