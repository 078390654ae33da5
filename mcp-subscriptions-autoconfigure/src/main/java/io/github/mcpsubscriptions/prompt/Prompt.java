package io.github.mcpsubscriptions.prompt;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A prompt the server offers. {@link McpPrompt} methods become prompts; integrations
 * adapt their own prompts to this, and applications may implement it directly,
 * registering it with the {@link PromptRegistry}.
 *
 * @since 0.1.0
 */
public interface Prompt {

	/**
	 * What {@code prompts/list} says of the prompt.
	 * @return the definition
	 */
	PromptDefinition getDefinition();

	/**
	 * Give the prompt's messages. The arguments have been checked against the definition
	 * already: every required one is there, and none is unknown. Throwing
	 * {@link IllegalArgumentException} tells the client its arguments are invalid
	 * ({@code -32602}, with the message); any other exception is logged and answered with
	 * a safe message.
	 * @param request the arguments and the caller
	 * @return the messages
	 * @throws Exception when the prompt fails
	 */
	PromptResult get(PromptRequest request) throws Exception;

	/**
	 * Suggest values for an argument ({@code completion/complete} with a
	 * {@code ref/prompt} reference), when no {@link PromptCompleter} bean answered.
	 * @param argument the argument's name
	 * @param prefix what the user typed so far
	 * @param context the values of the other arguments, already chosen
	 * @return the suggestions, none by default
	 */
	default List<String> complete(String argument, String prefix, Map<String, String> context) {
		return List.of();
	}

	/**
	 * The method the prompt runs, whose annotations (such as {@code @PreAuthorize}) an
	 * access policy may judge.
	 * @return the method, or {@code null}
	 */
	default @Nullable Method getMethod() {
		return null;
	}

	/**
	 * The object the method is called on.
	 * @return the target, or {@code null}
	 */
	default @Nullable Object getTarget() {
		return null;
	}

}
