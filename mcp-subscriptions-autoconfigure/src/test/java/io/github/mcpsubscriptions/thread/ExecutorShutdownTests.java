package io.github.mcpsubscriptions.thread;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

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
		CountDownLatch release = new CountDownLatch(1);
		// The worker's exit held until the test releases it: the window after
		// termination.
		ExecutorService executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				(task) -> {
					Thread thread = threads.newThread(() -> {
						task.run();
						awaitUninterruptibly(release);
					});
					worker.set(thread);
					return thread;
				});
		executor.submit(() -> {
		}).get();

		CompletableFuture<Void> shutdown = CompletableFuture
			.runAsync(() -> ExecutorShutdown.now(List.of(threads), executor));
		await().atMost(Duration.ofSeconds(10)).until(executor::isTerminated);
		assertThatExceptionOfType(TimeoutException.class).as("the shutdown waits for the worker thread")
			.isThrownBy(() -> shutdown.get(300, TimeUnit.MILLISECONDS));
		release.countDown();
		shutdown.get(10, TimeUnit.SECONDS);

		assertThat(worker.get().isAlive()).as("the worker thread after the shutdown").isFalse();
		assertThat(worker.get().getName()).isEqualTo("test-worker-1");
		assertThat(worker.get().isDaemon()).isTrue();
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		while (true) {
			try {
				latch.await();
				return;
			}
			catch (InterruptedException ex) {
				// shutdownNow interrupts the worker; it still ends only when released.
			}
		}
	}

}
