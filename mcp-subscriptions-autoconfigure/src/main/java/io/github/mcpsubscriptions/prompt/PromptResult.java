package io.github.mcpsubscriptions.prompt;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What {@code prompts/get} answers.
 *
 * @param description a description of this rendering of the prompt, or {@code null}
 * @param messages the messages
 * @since 0.1.0
 */
public record PromptResult(@Nullable String description, List<PromptMessage> messages) {

	public PromptResult {
		messages = List.copyOf(messages);
	}

	/**
	 * Messages without a description.
	 * @param messages the messages
	 * @return the result
	 */
	public static PromptResult of(PromptMessage... messages) {
		return new PromptResult(null, List.of(messages));
	}

}
