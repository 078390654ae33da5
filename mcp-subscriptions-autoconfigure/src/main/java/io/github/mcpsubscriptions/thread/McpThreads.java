package io.github.mcpsubscriptions.thread;

import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * Makes every thread and executor of the starter: named (the names are in
 * {@code docs/internals.md}), daemon, and virtual only for delivery, and there only where
 * {@code spring.threads.virtual.enabled} asks for it on a JDK that has them (21 and
 * later).
 * <p>
 * Delivery tasks are many, short and may wait (for a place at the delivery gate): a
 * virtual thread each costs little, and one that waits holds no platform thread. Every
 * other thread is one long-lived platform thread: the dispatcher is CPU-bound, and as a
 * virtual thread would hold a carrier the delivery tasks need for as long as it runs; the
 * timers and housekeeping threads wait between short turns, which a virtual thread would
 * not make cheaper; the readers (the cluster's log, the database capture) block in
 * drivers that may pin a virtual thread's carrier for a whole read. As platform threads
 * they stay visible in thread dumps and to the web server's check for threads left
 * running, and every executor of platform threads made here waits for its threads when it
 * {@linkplain ExecutorService#awaitTermination awaits termination}: an executor reports
 * termination while its last worker is still returning, a thread Tomcat would report as
 * left running.
 *
 * @since 0.1.0
 */
public final class McpThreads {

	private static final McpThreads PLATFORM = new McpThreads(false);

	private final boolean virtual;

	private McpThreads(boolean virtual) {
		this.virtual = virtual;
	}

	/**
	 * Threads that are all platform threads.
	 * @return the threads
	 */
	public static McpThreads platform() {
		return PLATFORM;
	}

	/**
	 * Threads that deliver on virtual threads if asked and the JDK has them (21 and
	 * later), on platform threads otherwise.
	 * @param virtualThreads whether virtual threads are wanted, as
	 * {@code spring.threads.virtual.enabled} says
	 * @return the threads
	 */
	public static McpThreads of(boolean virtualThreads) {
		return (virtualThreads && Runtime.version().feature() >= 21) ? new McpThreads(true) : PLATFORM;
	}

	/**
	 * Whether delivery runs on virtual threads.
	 * @return whether it does
	 */
	public boolean isVirtual() {
		return this.virtual;
	}

	/**
	 * The executor of delivery tasks: a virtual thread per task where virtual threads are
	 * on, named {@code prefix} and a number, else a fixed pool of platform threads named
	 * {@code prefix} and a number from 1.
	 * @param prefix such as {@code mcp-delivery-}
	 * @param poolSize the pool's size where the threads are platform threads
	 * @return the executor
	 */
	public ExecutorService deliveryExecutor(String prefix, int poolSize) {
		if (this.virtual) {
			// Spring's, not the JDK's: the JDK's builder of virtual threads is not in
			// the Java 17 API the starter compiles against.
			return new PerTask(new VirtualThreadTaskExecutor(prefix).getVirtualThreadFactory());
		}
		return new Pool(poolSize, NamedThreads.numbered(prefix));
	}

	/**
	 * One platform thread that runs tasks in submission order.
	 * @param name the thread's name
	 * @return the executor
	 */
	public static ExecutorService singleThread(String name) {
		return new Pool(1, NamedThreads.named(name));
	}

	/**
	 * One platform thread that runs delayed and periodic tasks.
	 * @param name the thread's name
	 * @return the executor
	 */
	public static ScheduledThreadPoolExecutor scheduled(String name) {
		return new Scheduled(1, NamedThreads.named(name));
	}

	/**
	 * Platform threads, numbered after a prefix, that run delayed and periodic tasks.
	 * @param prefix the threads' name before their number
	 * @param threads how many
	 * @return the executor
	 */
	public static ScheduledThreadPoolExecutor scheduled(String prefix, int threads) {
		return new Scheduled(threads, NamedThreads.numbered(prefix));
	}

	/**
	 * A platform daemon thread, not yet started, for a loop that blocks in reads.
	 * @param name the thread's name
	 * @param task what it runs
	 * @return the thread
	 */
	public static Thread thread(String name, Runnable task) {
		return NamedThreads.named(name).newThread(task);
	}

	/**
	 * A thread per task, as the JDK's own executor of virtual threads (whose factory
	 * method is not in the Java 17 API): no queue and no pool, so a task never waits for
	 * a thread; {@link #shutdownNow()} interrupts the running tasks, and termination is
	 * when the last has ended.
	 */
	private static final class PerTask extends AbstractExecutorService {

		private final ThreadFactory factory;

		private final Set<Thread> running = ConcurrentHashMap.newKeySet();

		private final CountDownLatch terminated = new CountDownLatch(1);

		private volatile boolean shutdown;

		PerTask(ThreadFactory factory) {
			this.factory = factory;
		}

		@Override
		public void execute(Runnable task) {
			if (this.shutdown) {
				throw new RejectedExecutionException("Shut down");
			}
			Thread thread = this.factory.newThread(() -> {
				try {
					task.run();
				}
				finally {
					this.running.remove(Thread.currentThread());
					terminateIfDone();
				}
			});
			this.running.add(thread);
			if (this.shutdown) {
				// Shut down meanwhile: the shutdown may not have seen this thread.
				this.running.remove(thread);
				terminateIfDone();
				throw new RejectedExecutionException("Shut down");
			}
			try {
				thread.start();
			}
			catch (RuntimeException | Error ex) {
				// Never started, so never ends: it must not hold termination back.
				this.running.remove(thread);
				terminateIfDone();
				throw ex;
			}
		}

		private void terminateIfDone() {
			if (this.shutdown && this.running.isEmpty()) {
				this.terminated.countDown();
			}
		}

		@Override
		public void shutdown() {
			this.shutdown = true;
			terminateIfDone();
		}

		@Override
		public List<Runnable> shutdownNow() {
			shutdown();
			this.running.forEach(Thread::interrupt);
			return List.of();
		}

		@Override
		public boolean isShutdown() {
			return this.shutdown;
		}

		@Override
		public boolean isTerminated() {
			return this.terminated.getCount() == 0;
		}

		@Override
		public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
			return this.terminated.await(timeout, unit);
		}

	}

	/** A fixed pool that waits for its threads' end too. */
	private static final class Pool extends ThreadPoolExecutor {

		private final NamedThreads threads;

		Pool(int size, NamedThreads threads) {
			super(size, size, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), threads);
			this.threads = threads;
		}

		@Override
		public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
			long deadline = System.nanoTime() + unit.toNanos(timeout);
			return super.awaitTermination(timeout, unit)
					&& this.threads.awaitEnd(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
		}

	}

	/** A one-thread scheduler that waits for its thread's end too. */
	private static final class Scheduled extends ScheduledThreadPoolExecutor {

		private final NamedThreads threads;

		Scheduled(int size, NamedThreads threads) {
			super(size, threads);
			this.threads = threads;
		}

		@Override
		public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
			long deadline = System.nanoTime() + unit.toNanos(timeout);
			return super.awaitTermination(timeout, unit)
					&& this.threads.awaitEnd(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
		}

	}

}
