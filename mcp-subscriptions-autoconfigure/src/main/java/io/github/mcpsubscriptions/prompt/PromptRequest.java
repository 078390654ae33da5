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
 * @param meta the request's {@code _meta} as the client sent it (a JSON object as text),
 * or {@code null} when it sent none
 * @since 0.1.0
 */
public record PromptRequest(String name, Map<String, String> arguments, @Nullable Principal principal,
		@Nullable String meta) {

	public PromptRequest {
		arguments = Map.copyOf(arguments);
	}

	/**
	 * A request without {@code _meta}.
	 * @param name the prompt's name
	 * @param arguments the arguments the client gave, by name
	 * @param principal the caller, or {@code null}
	 */
	public PromptRequest(String name, Map<String, String> arguments, @Nullable Principal principal) {
		this(name, arguments, principal, null);
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
