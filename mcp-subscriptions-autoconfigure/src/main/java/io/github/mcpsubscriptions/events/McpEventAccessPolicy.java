package io.github.mcpsubscriptions.events;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

/**
 * Decides who may see, subscribe to and receive which events, with the same principal as
 * the resource and tool policies. Judged on every {@code events/list} and
 * {@code events/poll}: a poll has no subscribe step, so a revoked permission shows on the
 * next poll.
 *
 * @since 0.1.0
 */
public interface McpEventAccessPolicy {

	/**
	 * Everyone who reached the endpoint may see, subscribe to and receive every event.
	 */
	McpEventAccessPolicy PERMIT_ALL = new McpEventAccessPolicy() {
	};

	/**
	 * Whether a caller may see an event type: a hidden one is left out of
	 * {@code events/list} and unknown ({@code NotFound}) to its polls.
	 * @param principal the caller, or {@code null}
	 * @param eventType the event type's name
	 * @return whether it may
	 */
	default boolean canSee(@Nullable Principal principal, String eventType) {
		return true;
	}

	/**
	 * Whether a caller may subscribe to an event type with these arguments; if not, its
	 * poll is answered {@code Forbidden}.
	 * @param principal the caller, or {@code null}
	 * @param eventType the event type's name
	 * @param arguments the subscription's arguments, or {@code null} for a type without
	 * arguments
	 * @return whether it may
	 */
	default boolean canSubscribe(@Nullable Principal principal, String eventType, @Nullable Object arguments) {
		return true;
	}

	/**
	 * Whether a caller receives one event: the events it may not receive are skipped, as
	 * if they did not match.
	 * @param principal the caller, or {@code null}
	 * @param eventType the event type's name
	 * @param event the event, as published
	 * @return whether it may
	 */
	default boolean canReceive(@Nullable Principal principal, String eventType, Object event) {
		return true;
	}

}
