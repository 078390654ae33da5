package io.github.mcpsubscriptions.notification;

import java.time.Duration;

/**
 * Runs outbox drains: now, or after a rate-limit delay. Tests substitute a manual one.
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

}
