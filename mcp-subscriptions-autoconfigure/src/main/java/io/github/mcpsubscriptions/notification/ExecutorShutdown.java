package io.github.mcpsubscriptions.notification;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Stops executors and waits, bounded, for their threads to end: a thread still running
 * when the web server stops is reported by Tomcat as a leak.
 */
final class ExecutorShutdown {

	private static final Log logger = LogFactory.getLog(ExecutorShutdown.class);

	private static final long WAIT_SECONDS = 5;

	private ExecutorShutdown() {
	}

	static void now(ExecutorService... executors) {
		for (ExecutorService executor : executors) {
			executor.shutdownNow();
		}
		try {
			for (ExecutorService executor : executors) {
				if (!executor.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)) {
					logger.warn("MCP notification threads did not stop within " + WAIT_SECONDS + " s");
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
