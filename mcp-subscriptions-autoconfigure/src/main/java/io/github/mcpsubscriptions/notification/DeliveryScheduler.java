package io.github.mcpsubscriptions.notification;

import java.time.Duration;

/**
 * Runs outbox drains: now, after a rate-limit delay, or, while delivery is saturated,
 * gathered with others or held back until their streams' next turn is due. Tests
 * substitute a manual one.
 *
 * @since 0.1.0
 */
public interface DeliveryScheduler {

	/**
	 * Run a task soon, on a delivery thread.
	 * @param task the task
	 */
	void execute(Runnable task);

	/**
	 * Run a task after a delay.
	 * @param task the task
	 * @param delay the delay
	 */
	void schedule(Runnable task, Duration delay);

	/**
	 * Run a drain that would write a lone notification a little later, with every other
	 * drain gathered meanwhile, if drains already wait for their turn and the
	 * notification's change was not published long ago already: more notifications may
	 * then join its write, and fewer writes let delivery catch up. A scheduler that never
	 * gathers keeps this default.
	 * @param task the drain
	 * @param waitedMillis how long ago the notification's change was published
	 * @return whether the drain was taken; if not, the caller goes on writing
	 */
	default boolean gather(Runnable task, long waitedMillis) {
		return false;
	}

	/**
	 * Run a turn of a task that writes to the same streams over and over (a lane of
	 * subscribers) later, if drains already wait for their turn and its previous turn
	 * began less than the scheduler's turn interval ago: it runs once that interval has
	 * passed, and what reaches its streams meanwhile shares their writes. Without it, a
	 * server that writes more cheaply than its clients read takes its turns ever more
	 * often, each with fewer notifications, and spends the cores it saved on more writes.
	 * The newest state is never held for the spacing, though: once nothing new has been
	 * handed to the task for the scheduler's bound, what waits is the last change of its
	 * burst and the turn runs. A scheduler that never holds turns back keeps this
	 * default.
	 * @param task the task
	 * @param sinceLastTurnNanos how long ago its previous turn began
	 * @param sinceLastHandOverNanos how long ago something was last handed to it
	 * @return whether the turn was taken (the scheduler runs it later); if not, the
	 * caller runs it now
	 */
	default boolean holdBack(Runnable task, long sinceLastTurnNanos, long sinceLastHandOverNanos) {
		return false;
	}

}
