package io.github.mcpsubscriptions.notification;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shutdown returns when the executor's threads have ended, not only when the executor
 * reports termination: its last worker is still returning then, and a web server that
 * stops next reports the thread as left running.
 */
class ExecutorShutdownTests {

	@Test
	void waitsForAThreadThatOutlivesItsExecutorsTermination() throws Exception {
		NamedThreads threads = NamedThreads.numbered("test-worker-");
		AtomicReference<Thread> worker = new AtomicReference<>();
		// The worker's exit made slow, so that the window after termination is wide.
		ExecutorService executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				(task) -> {
					Thread thread = threads.newThread(() -> {
						task.run();
						try {
							Thread.sleep(300);
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
						}
					});
					worker.set(thread);
					return thread;
				});
		executor.submit(() -> {
		}).get();

		ExecutorShutdown.now(List.of(threads), executor);

		assertThat(executor.isTerminated()).isTrue();
		assertThat(worker.get().isAlive()).as("the worker thread after the shutdown").isFalse();
		assertThat(worker.get().getName()).isEqualTo("test-worker-1");
		assertThat(worker.get().isDaemon()).isTrue();
	}

}
