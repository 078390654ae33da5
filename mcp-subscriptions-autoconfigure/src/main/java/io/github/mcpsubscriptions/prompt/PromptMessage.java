package io.github.mcpsubscriptions.prompt;

/**
 * One message of a prompt.
 *
 * @param role who says it
 * @param content what it holds
 * @since 0.1.0
 */
public record PromptMessage(Role role, PromptContent content) {

	/**
	 * A user message.
	 * @param content what it holds
	 * @return the message
	 */
	public static PromptMessage user(PromptContent content) {
		return new PromptMessage(Role.USER, content);
	}

	/**
	 * A user text message.
	 * @param text the text
	 * @return the message
	 */
	public static PromptMessage user(String text) {
		return user(PromptContent.text(text));
	}

	/**
	 * An assistant message.
	 * @param content what it holds
	 * @return the message
	 */
	public static PromptMessage assistant(PromptContent content) {
		return new PromptMessage(Role.ASSISTANT, content);
	}

	/**
	 * An assistant text message.
	 * @param text the text
	 * @return the message
	 */
	public static PromptMessage assistant(String text) {
		return assistant(PromptContent.text(text));
	}

	/**
	 * Who says a message.
	 *
	 * @since 0.1.0
	 */
	public enum Role {

		/** The human user. */
		USER,

		/** The model. */
		ASSISTANT

	}

}
