package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsubscriptions.thread.McpThreads;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Delivery keeps to its share of the cores, and a drain blocked on a socket does not hold
 * the others back.
 */
class ExecutorDeliverySchedulerTests {

	@Test
	void atMostTheParallelismOfDrainsRunAtOnce() throws Exception {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostAtOnce = new AtomicInteger();
		AtomicInteger started = new AtomicInteger();
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch finished = new CountDownLatch(6);
		try (ExecutorDeliveryScheduler scheduler = new ExecutorDeliveryScheduler(8, 2, Duration.ofMinutes(10), false)) {
			for (int i = 0; i < 6; i++) {
				scheduler.execute(() -> {
					mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
					started.incrementAndGet();
					try {
						release.await(30, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					running.decrementAndGet();
					finished.countDown();
				});
			}
			// Eight pool threads, six drains: only two may run while they hold their
			// places.
			await().atMost(10, TimeUnit.SECONDS).until(() -> started.get() == 2);
			await().during(300, TimeUnit.MILLISECONDS).atMost(5, TimeUnit.SECONDS).until(() -> started.get() == 2);
			release.countDown();
			assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(mostAtOnce.get()).isEqualTo(2);
			assertThat(scheduler.getOvertaken()).isZero();
		}
	}

	@Test
	void aDrainBlockedPastTheLeaseNoLongerHoldsTheOthersBack() throws Exception {
		CountDownLatch blocked = new CountDownLatch(1);
		CountDownLatch unblock = new CountDownLatch(1);
		AtomicBoolean otherRan = new AtomicBoolean();
		try (ExecutorDeliveryScheduler scheduler = new ExecutorDeliveryScheduler(4, 1, Duration.ofMillis(50), false)) {
			scheduler.execute(() -> {
				blocked.countDown();
				try {
					// A write to a client that stopped reading.
					unblock.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
			scheduler.execute(() -> otherRan.set(true));
			await().atMost(10, TimeUnit.SECONDS).untilTrue(otherRan);
			assertThat(scheduler.getOvertaken()).isEqualTo(1);
			unblock.countDown();
		}
	}

	@Test
	void whileDrainsWaitForTheirTurnOthersAreGatheredAndRunTogetherAfterTheWindow() throws Exception {
		Duration window = Duration.ofMillis(300);
		CountDownLatch unblock = new CountDownLatch(1);
		CountDownLatch gatheredRan = new CountDownLatch(3);
		AtomicInteger waiterRan = new AtomicInteger();
		try (ExecutorDeliveryScheduler scheduler = new ExecutorDeliveryScheduler(4, 1, Duration.ofMinutes(10), window,
				ExecutorDeliveryScheduler.DEFAULT_TURN_INTERVAL, McpThreads.platform())) {
			assertThat(scheduler.gather(gatheredRan::countDown, 0)).as("nothing waits: no gathering").isFalse();
			holdTheGate(scheduler, unblock);
			scheduler.execute(waiterRan::incrementAndGet);
			await().atMost(10, TimeUnit.SECONDS).until(scheduler::isSaturated);
			assertThat(scheduler.gather(gatheredRan::countDown, window.toMillis()))
				.as("a drain that waited a window already is late: it is not held back")
				.isFalse();
			long start = System.nanoTime();
			for (int i = 0; i < 3; i++) {
				assertThat(scheduler.gather(gatheredRan::countDown, window.toMillis() - 1)).isTrue();
			}
			unblock.countDown();
			await().atMost(10, TimeUnit.SECONDS).until(() -> waiterRan.get() == 1);
			assertThat(gatheredRan.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("they waited for the window")
				.isGreaterThanOrEqualTo(window);
		}
	}

	@Test
	void aZeroWindowNeverGathers() throws Exception {
		CountDownLatch unblock = new CountDownLatch(1);
		try (ExecutorDeliveryScheduler scheduler = new ExecutorDeliveryScheduler(4, 1, Duration.ofMinutes(10),
				Duration.ZERO, ExecutorDeliveryScheduler.DEFAULT_TURN_INTERVAL, McpThreads.platform())) {
			saturate(scheduler, unblock);
			assertThat(scheduler.gather(() -> {
			}, 0)).isFalse();
			assertThat(scheduler.getGatheringWindow()).isZero();
			unblock.countDown();
		}
	}

	@Test
	void aNegativeWindowIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ExecutorDeliveryScheduler(4, 1, Duration.ofMillis(100), Duration.ofMillis(-1)))
			.withMessageContaining("gathering window");
	}

	@Test
	void whileDrainsWaitForTheirTurnALaneBackTooSoonIsHeldUntilItsIntervalHasPassed() throws Exception {
		Duration interval = Duration.ofMillis(300);
		CountDownLatch unblock = new CountDownLatch(1);
		CountDownLatch heldRan = new CountDownLatch(1);
		try (ExecutorDeliveryScheduler scheduler = new ExecutorDeliveryScheduler(4, 1, Duration.ofMinutes(10),
				Duration.ofMillis(100), interval, McpThreads.platform())) {
			assertThat(scheduler.getTurnInterval()).isEqualTo(interval);
			assertThat(scheduler.holdBack(heldRan::countDown, 0, 0)).as("nothing waits: the turn runs now").isFalse();
			saturate(scheduler, unblock);
			assertThat(scheduler.holdBack(heldRan::countDown, interval.toNanos(), 0))
				.as("its previous turn began an interval ago: it runs now")
				.isFalse();
			assertThat(scheduler.holdBack(heldRan::countDown, Long.MAX_VALUE, 0)).as("it never had a turn").isFalse();
			long start = System.nanoTime();
			// Nearer to its interval than the last change's bound: the interval decides.
			long since = interval.minusMillis(30).toNanos();
			assertThat(scheduler.holdBack(heldRan::countDown, since, 0)).isTrue();
			unblock.countDown();
			assertThat(heldRan.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(Duration.ofNanos(System.nanoTime() - start))
				.as("it ran once the interval since its previous turn had passed")
				.isGreaterThanOrEqualTo(interval.minusNanos(since));
		}
	}

	@Test
	void aHeldTurnRunsOnceNothingNewReachedItForTheBoundEvenBeforeItsInterval() throws Exception {
		Duration interval = Duration.ofSeconds(30);
		long bound = ExecutorDeliveryScheduler.LAST_CHANGE_BOUND_NANOS;
		CountDownLatch unblock = new CountDownLatch(1);
		CountDownLatch heldRan = new CountDownLatch(1);
		try (ExecutorDeliveryScheduler scheduler = new ExecutorDeliveryScheduler(4, 1, Duration.ofMinutes(10),
				Duration.ofMillis(100), interval, McpThreads.platform())) {
			saturate(scheduler, unblock);
			assertThat(scheduler.holdBack(heldRan::countDown, 0, bound))
				.as("nothing new for the bound: what waits is the last change, written now")
				.isFalse();
			long start = System.nanoTime();
			assertThat(scheduler.holdBack(heldRan::countDown, 0, 0))
				.as("a hand-over just now: the turn waits for company")
				.isTrue();
			unblock.countDown();
			assertThat(heldRan.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(Duration.ofNanos(System.nanoTime() - start))
				.as("it ran after the bound, long before the interval")
				.isGreaterThanOrEqualTo(Duration.ofNanos(bound))
				.isLessThan(interval);
		}
	}

	@Test
	void aZeroTurnIntervalNeverHoldsATurnBack() throws Exception {
		CountDownLatch unblock = new CountDownLatch(1);
		try (ExecutorDeliveryScheduler scheduler = new ExecutorDeliveryScheduler(4, 1, Duration.ofMinutes(10),
				Duration.ofMillis(100), Duration.ZERO, McpThreads.platform())) {
			saturate(scheduler, unblock);
			assertThat(scheduler.holdBack(() -> {
			}, 0, 0)).isFalse();
			assertThat(scheduler.getTurnInterval()).isZero();
			unblock.countDown();
		}
	}

	@Test
	void aNegativeTurnIntervalIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ExecutorDeliveryScheduler(4, 1, Duration.ofMillis(100), Duration.ofMillis(100),
					Duration.ofMillis(-1)))
			.withMessageContaining("turn interval");
	}

	/**
	 * Hold the only place at the gate and queue a drain behind it: delivery is saturated
	 * until released.
	 */
	private static void saturate(ExecutorDeliveryScheduler scheduler, CountDownLatch release)
			throws InterruptedException {
		holdTheGate(scheduler, release);
		scheduler.execute(() -> {
		});
		await().atMost(10, TimeUnit.SECONDS).until(scheduler::isSaturated);
	}

	/**
	 * Run a drain that holds the only place at the gate until released, and return once
	 * it does: a drain executed next then waits for its turn, rather than overtaking it
	 * to the gate on another pool thread.
	 */
	private static void holdTheGate(ExecutorDeliveryScheduler scheduler, CountDownLatch release)
			throws InterruptedException {
		CountDownLatch holding = new CountDownLatch(1);
		scheduler.execute(() -> {
			holding.countDown();
			awaitQuietly(release);
		});
		assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void theParallelismIsAShareOfTheCoresAndAtLeastOne() {
		assertThat(ExecutorDeliveryScheduler.parallelism(0.5, 2)).isEqualTo(1);
		assertThat(ExecutorDeliveryScheduler.parallelism(0.5, 1)).isEqualTo(1);
		assertThat(ExecutorDeliveryScheduler.parallelism(0.5, 16)).isEqualTo(8);
		assertThat(ExecutorDeliveryScheduler.parallelism(0.75, 2)).isEqualTo(1);
		assertThat(ExecutorDeliveryScheduler.parallelism(1, 2)).isEqualTo(2);
		assertThat(ExecutorDeliveryScheduler.parallelism(2, 4)).isEqualTo(8);
		assertThatIllegalArgumentException().isThrownBy(() -> ExecutorDeliveryScheduler.parallelism(0, 4));
		assertThatIllegalArgumentException().isThrownBy(() -> ExecutorDeliveryScheduler.parallelism(Double.NaN, 4));
	}

}
