package io.github.mcpsubscriptions.notification;

import java.util.function.IntSupplier;

/**
 * Wraps the dispatch of each change, so tracing can show the fan-out of one change.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface DispatchObserver {

	/** Observes nothing. */
	DispatchObserver NONE = (change, dispatch) -> dispatch.getAsInt();

	/**
	 * Run a dispatch.
	 * @param change the change being dispatched
	 * @param dispatch the dispatch; returns the number of matching subscriptions
	 */
	void observe(ResourceChange change, IntSupplier dispatch);

}
