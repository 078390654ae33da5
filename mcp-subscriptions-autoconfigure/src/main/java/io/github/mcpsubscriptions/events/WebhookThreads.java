package io.github.mcpsubscriptions.events;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.thread.McpThreads;

/**
 * The one place webhook threads are made: platform daemon threads named
 * {@code mcp-webhooks-N}, in a small scheduled pool that reads the log, posts and waits
 * out back-offs.
 */
final class WebhookThreads {

	private WebhookThreads() {
	}

	/**
	 * The webhook executor.
	 * @param threads how many threads
	 * @return the executor
	 */
	static ScheduledExecutorService executor(int threads) {
		if (threads < 1) {
			throw new IllegalArgumentException("mcp.events.webhooks.threads must be at least 1, was " + threads);
		}
		return McpThreads.scheduled("mcp-webhooks-", threads);
	}

	/**
	 * Stop an executor: running posts are interrupted, waiting ones dropped.
	 * @param executor the executor
	 */
	static void close(ScheduledExecutorService executor) {
		executor.shutdownNow();
		try {
			executor.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
