package io.github.mcpsubscriptions.thread;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the daemon threads of one of the starter's executors, and remembers them so that
 * a shutdown can wait for the threads themselves: an executor reports termination while
 * its last worker is still returning, a thread the web server would report as left
 * running.
 */
final class NamedThreads implements ThreadFactory {

	private final String prefix;

	private final boolean numbered;

	private final AtomicInteger count = new AtomicInteger();

	private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

	private NamedThreads(String prefix, boolean numbered) {
		this.prefix = prefix;
		this.numbered = numbered;
	}

	/**
	 * Threads named by a prefix and a number.
	 * @param prefix such as {@code mcp-delivery-}
	 * @return the factory
	 */
	static NamedThreads numbered(String prefix) {
		return new NamedThreads(prefix, true);
	}

	/**
	 * Threads with one name, for a single-threaded executor.
	 * @param name the name
	 * @return the factory
	 */
	static NamedThreads named(String name) {
		return new NamedThreads(name, false);
	}

	@Override
	public Thread newThread(Runnable task) {
		Thread thread = new Thread(task, this.numbered ? this.prefix + this.count.incrementAndGet() : this.prefix);
		thread.setDaemon(true);
		// A pool replaces a worker that died; the dead are of no interest.
		this.threads.removeIf((known) -> known.getState() == Thread.State.TERMINATED);
		this.threads.add(thread);
		return thread;
	}

	/**
	 * Waits until every thread made here has ended, bounded.
	 * @param timeout how long at most, for all together
	 * @param unit the unit of the timeout
	 * @return whether all ended in time
	 */
	boolean awaitEnd(long timeout, TimeUnit unit) throws InterruptedException {
		long deadline = System.nanoTime() + unit.toNanos(timeout);
		for (Thread thread : List.copyOf(this.threads)) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				return !thread.isAlive();
			}
			TimeUnit.NANOSECONDS.timedJoin(thread, left);
			if (thread.isAlive()) {
				return false;
			}
		}
		return true;
	}

}
