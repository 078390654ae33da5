package io.github.mcpsubscriptions.notification;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Delivers on virtual threads where the JDK has them (21 and later), so a client whose
 * socket stalls holds no platform thread; otherwise on a bounded pool. Delays run on one
 * timer thread that only hands tasks over.
 */
public final class ExecutorDeliveryScheduler implements DeliveryScheduler, AutoCloseable {

	private static final Log logger = LogFactory.getLog(ExecutorDeliveryScheduler.class);

	private final ExecutorService delivery;

	private final ScheduledExecutorService timer;

	/**
	 * Create a scheduler.
	 * @param poolSize the pool size where virtual threads are not available
	 */
	public ExecutorDeliveryScheduler(int poolSize) {
		ExecutorService virtualThreads = virtualThreadExecutor();
		this.delivery = (virtualThreads != null) ? virtualThreads
				: Executors.newFixedThreadPool(poolSize, daemon("mcp-delivery-"));
		logger.info((virtualThreads != null) ? "MCP notifications are written on virtual threads"
				: "MCP notifications are written on a pool of " + poolSize + " threads (JDK 21+ uses virtual threads)");
		this.timer = Executors.newSingleThreadScheduledExecutor(daemon("mcp-delivery-timer-"));
	}

	private static ExecutorService virtualThreadExecutor() {
		try {
			Method factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
			return (ExecutorService) factory.invoke(null);
		}
		catch (ReflectiveOperationException ex) {
			return null;
		}
	}

	private static java.util.concurrent.ThreadFactory daemon(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	@Override
	public void execute(Runnable task) {
		try {
			this.delivery.execute(task);
		}
		catch (RejectedExecutionException ex) {
			// Shutting down: what waits is dropped with the streams.
		}
	}

	@Override
	public void schedule(Runnable task, Duration delay) {
		try {
			this.timer.schedule(() -> execute(task), delay.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Shutting down.
		}
	}

	@Override
	public void close() {
		ExecutorShutdown.now(this.timer, this.delivery);
	}

}
