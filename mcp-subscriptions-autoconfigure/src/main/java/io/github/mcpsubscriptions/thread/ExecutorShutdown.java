package io.github.mcpsubscriptions.thread;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Stops executors and waits, bounded, for their threads to end: a thread still running
 * when the web server stops is reported by Tomcat as a leak.
 *
 * @since 0.1.0
 */
public final class ExecutorShutdown {

	private static final Log logger = LogFactory.getLog(ExecutorShutdown.class);

	private static final long WAIT_SECONDS = 5;

	private ExecutorShutdown() {
	}

	/**
	 * Stop executors at once and wait, bounded, for them to terminate.
	 * @param executors the executors
	 */
	public static void now(ExecutorService... executors) {
		now(List.of(), executors);
	}

	/**
	 * Stops executors, then waits for their threads too: an executor reports termination
	 * while its last worker is still returning.
	 * @param threads the factories of the executors' threads
	 * @param executors the executors
	 */
	static void now(List<NamedThreads> threads, ExecutorService... executors) {
		for (ExecutorService executor : executors) {
			executor.shutdownNow();
		}
		try {
			for (ExecutorService executor : executors) {
				if (!executor.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)) {
					logger.warn("MCP notification threads did not stop within " + WAIT_SECONDS + " s");
					return;
				}
			}
			for (NamedThreads factory : threads) {
				if (!factory.awaitEnd(WAIT_SECONDS, TimeUnit.SECONDS)) {
					logger.warn("MCP notification threads did not end within " + WAIT_SECONDS + " s");
					return;
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
