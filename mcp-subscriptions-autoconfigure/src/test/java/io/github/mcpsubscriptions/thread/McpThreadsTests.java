package io.github.mcpsubscriptions.thread;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every thread of the starter is named and a daemon; only delivery may be virtual, and
 * only where asked on a JDK that has them.
 */
class McpThreadsTests {

	@Test
	void platformThreadsAreNamedDaemons() throws Exception {
		ExecutorService single = McpThreads.singleThread("test-single");
		ScheduledExecutorService scheduled = McpThreads.scheduled("test-scheduled");
		ExecutorService delivery = McpThreads.platform().deliveryExecutor("test-delivery-", 2);
		try {
			assertThat(threadOf(single)).satisfies((thread) -> assertPlatformDaemon(thread, "test-single"));
			assertThat(scheduled.schedule(Thread::currentThread, 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS))
				.satisfies((thread) -> assertPlatformDaemon(thread, "test-scheduled"));
			assertThat(threadOf(delivery)).satisfies((thread) -> assertPlatformDaemon(thread, "test-delivery-1"));
			Thread reader = McpThreads.thread("test-reader", () -> {
			});
			assertPlatformDaemon(reader, "test-reader");
			assertThat(reader.getState()).as("not started").isEqualTo(Thread.State.NEW);
		}
		finally {
			ExecutorShutdown.now(single, scheduled, delivery);
		}
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void deliveryIsVirtualWhereAsked() throws Exception {
		McpThreads threads = McpThreads.of(true);
		assertThat(threads.isVirtual()).isTrue();
		ExecutorService delivery = threads.deliveryExecutor("test-delivery-", 2);
		try {
			Thread thread = threadOf(delivery);
			assertThat(thread.getClass().getName()).isEqualTo("java.lang.VirtualThread");
			assertThat(thread.getName()).startsWith("test-delivery-");
		}
		finally {
			ExecutorShutdown.now(delivery);
		}
		assertThat(delivery.isTerminated()).isTrue();
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void virtualDeliveryStopsAsAnExecutorService() throws Exception {
		ExecutorService delivery = McpThreads.of(true).deliveryExecutor("test-delivery-", 2);
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch interrupted = new CountDownLatch(1);
		delivery.execute(() -> {
			started.countDown();
			try {
				new CountDownLatch(1).await();
			}
			catch (InterruptedException ex) {
				interrupted.countDown();
			}
		});
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(delivery.isTerminated()).isFalse();
		delivery.shutdownNow();
		assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the running task interrupted").isTrue();
		assertThat(delivery.awaitTermination(10, TimeUnit.SECONDS)).as("terminated once it ended").isTrue();
		assertThat(delivery.isShutdown()).isTrue();
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> delivery.execute(() -> {
		}));
	}

	@Test
	void deliveryIsOnPlatformThreadsUnlessAskedAndAvailable() {
		assertThat(McpThreads.of(false).isVirtual()).isFalse();
		assertThat(McpThreads.platform().isVirtual()).isFalse();
		assertThat(McpThreads.of(true).isVirtual()).isEqualTo(Runtime.version().feature() >= 21);
	}

	private static Thread threadOf(ExecutorService executor) throws Exception {
		return CompletableFuture.supplyAsync(Thread::currentThread, executor).get(10, TimeUnit.SECONDS);
	}

	private static void assertPlatformDaemon(Thread thread, String name) {
		assertThat(thread.getName()).isEqualTo(name);
		assertThat(thread.isDaemon()).isTrue();
		assertThat(thread.getClass().getName()).isNotEqualTo("java.lang.VirtualThread");
	}

}
