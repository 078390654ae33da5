package io.github.mcpsubscriptions.prompt;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Suggests values for a prompt's argument ({@code completion/complete} with a
 * {@code ref/prompt} reference). Completers are asked in order; the first that answers
 * wins. Without one, the prompt's own suggestions apply (for {@link McpPrompt} methods,
 * {@link McpPromptArgument#values()}). Only prompts the caller may get are completed.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface PromptCompleter {

	/**
	 * Suggest values.
	 * @param prompt the prompt's name
	 * @param argument the argument being completed
	 * @param prefix what the user typed so far
	 * @param context the values of the prompt's other arguments, already chosen
	 * @return the suggestions, or {@code null} if this completer does not handle the
	 * argument
	 */
	@Nullable List<String> complete(String prompt, String argument, String prefix, Map<String, String> context);

}
