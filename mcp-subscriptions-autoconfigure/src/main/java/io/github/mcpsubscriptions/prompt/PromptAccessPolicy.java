package io.github.mcpsubscriptions.prompt;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

/**
 * Decides who may get a prompt; a prompt a caller may not get is also left out of the
 * {@code prompts/list} it gets, offers it no completions, and getting it is answered as
 * for an unknown prompt.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface PromptAccessPolicy {

	/** Everyone who reached the endpoint may get every prompt. */
	PromptAccessPolicy PERMIT_ALL = (principal, prompt) -> true;

	/**
	 * Whether a caller may get (and see) a prompt.
	 * @param principal the caller, or {@code null}
	 * @param prompt the prompt
	 * @return whether it may
	 */
	boolean canGet(@Nullable Principal principal, Prompt prompt);

}
