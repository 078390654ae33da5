package io.github.mcpsubscriptions.session;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.thread.McpThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One daemon thread running periodic housekeeping (expiry, keep-alives, stall checks). A
 * task that throws (an {@link Error} included) is logged and runs again next time, rather
 * than silently never again as with a bare {@link ScheduledExecutorService}.
 *
 * @since 0.1.0
 */
public final class MaintenanceExecutor implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(MaintenanceExecutor.class);

	private final ScheduledExecutorService executor;

	private final String name;

	/**
	 * Start the thread.
	 * @param name the thread's name, also used in logs
	 */
	public MaintenanceExecutor(String name) {
		this.name = name;
		ScheduledThreadPoolExecutor executor = McpThreads.scheduled(name);
		// A cancelled one-off task (a stream's end at its credential's expiry, hours
		// ahead)
		// leaves the queue at once rather than when it would have run.
		executor.setRemoveOnCancelPolicy(true);
		this.executor = executor;
	}

	/**
	 * Run a task periodically, first after one interval.
	 * @param interval the interval; zero or negative schedules nothing
	 * @param task the task
	 */
	public void every(Duration interval, Runnable task) {
		if (interval.isZero() || interval.isNegative()) {
			return;
		}
		long millis = Math.max(1, interval.toMillis());
		this.executor.scheduleWithFixedDelay(() -> {
			try {
				task.run();
			}
			catch (Throwable ex) {
				// Even an Error: an escaped throwable would cancel the task for good (no
				// more
				// expiry, keep-alives or stall checks), and the next run may well
				// succeed.
				logger.error("Periodic task of " + this.name + " failed", ex);
			}
		}, millis, millis, TimeUnit.MILLISECONDS);
	}

	/**
	 * Run a task once, after a delay.
	 * @param delay the delay; zero or negative runs it at once
	 * @param task the task
	 * @return the task's future, to cancel it
	 */
	public ScheduledFuture<?> schedule(Duration delay, Runnable task) {
		long nanos;
		try {
			nanos = Math.max(0, delay.toNanos());
		}
		catch (ArithmeticException ex) {
			// Centuries ahead (a credential that practically never expires).
			nanos = Long.MAX_VALUE;
		}
		return this.executor.schedule(() -> {
			try {
				task.run();
			}
			catch (RuntimeException ex) {
				logger.error("Task of " + this.name + " failed", ex);
			}
		}, nanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
		try {
			// Wait for the thread to end, so that the web server does not find it
			// running.
			if (!this.executor.awaitTermination(5, TimeUnit.SECONDS)) {
				logger.warn("The " + this.name + " thread did not stop within 5 s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
