package io.github.mcpsubscriptions.events;

/**
 * Implemented by an {@link McpEvent} class whose subscriptions carry arguments: decides
 * per subscription whether the event is delivered (the draft's {@code match}), and
 * optionally what it delivers (its {@code transform}). Called for every subscription that
 * reads the event, so it should be cheap and must not change the event.
 *
 * @param <A> the arguments' type, as {@link McpEvent#arguments()} names it
 * @since 0.1.0
 */
public interface McpEventMatcher<A> {

	/**
	 * Whether the event is delivered to a subscription with these arguments.
	 * @param arguments the subscription's arguments, validated against the type's
	 * {@code inputSchema}
	 * @return whether it matches
	 */
	boolean matches(A arguments);

	/**
	 * What a subscription with these arguments receives as {@code data}: by default the
	 * event itself. Whatever is returned must be written as a JSON object.
	 * @param arguments the subscription's arguments
	 * @return the payload
	 */
	default Object payload(A arguments) {
		return this;
	}

}
