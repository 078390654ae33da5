package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The gate hands its places over first come, first served: a drain waits for at most as
 * many drains as queued before it, whatever arrives later, and whether a place is given
 * back or taken over from a drain blocked past the lease.
 */
class DeliveryGateTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final int WAITERS = 8;

	private final AtomicLong nanos = new AtomicLong();

	private final List<Thread> threads = new ArrayList<>();

	@AfterEach
	void stopThreads() throws InterruptedException {
		for (Thread thread : this.threads) {
			thread.interrupt();
			thread.join(WAIT.toMillis());
		}
	}

	@Test
	void aGivenBackPlaceGoesToTheOldestWaiterAndLaterArrivalsQueueBehind() throws Exception {
		// A lease that never ends on this clock: places are only given back.
		DeliveryGate gate = new DeliveryGate(1, TimeUnit.HOURS.toNanos(1), this.nanos::get);
		long first = gate.enter();
		List<String> order = new CopyOnWriteArrayList<>();
		List<CountDownLatch> releases = new ArrayList<>();
		for (int i = 1; i <= WAITERS; i++) {
			String name = "w" + i;
			CountDownLatch release = new CountDownLatch(1);
			releases.add(release);
			start(() -> {
				long ticket = gate.enter();
				order.add(name);
				release.await();
				// A drain that ends and starts another at once: it must not take back the
				// place it gives to the next waiter.
				gate.exit(ticket);
				long again = gate.enter();
				order.add(name + " again");
				gate.exit(again);
			});
			int queued = i;
			await().atMost(WAIT).until(() -> gate.getWaiting() == queued);
		}
		// The first holder does the same: gives its place back and wants one again at
		// once.
		start(() -> {
			gate.exit(first);
			long again = gate.enter();
			order.add("first again");
			gate.exit(again);
		});
		// Settled: every drain either holds the place, has held it or waits.
		await().atMost(WAIT).until(() -> !order.isEmpty() && order.size() + gate.getWaiting() == WAITERS + 1);
		assertThat(order).as("the oldest waiter has the place; the one that gave it back waits").containsExactly("w1");
		for (int i = 1; i < WAITERS; i++) {
			releases.get(i - 1).countDown();
			// The next waiter has the place, and the one that gave it back waits again.
			int held = i + 1;
			await().atMost(WAIT).until(() -> order.size() == held && gate.getWaiting() == WAITERS);
			assertThat(order.get(i)).isEqualTo("w" + held);
		}
		releases.get(WAITERS - 1).countDown();
		await().atMost(WAIT).until(() -> order.size() == 2 * WAITERS + 1);
		List<String> expected = new ArrayList<>();
		for (int i = 1; i <= WAITERS; i++) {
			expected.add("w" + i);
		}
		expected.add("first again");
		for (int i = 1; i <= WAITERS; i++) {
			expected.add("w" + i + " again");
		}
		assertThat(order).containsExactlyElementsOf(expected);
		assertThat(gate.getWaiting()).isZero();
		assertThat(gate.getOvertaken()).isZero();
	}

	@Test
	void aPlaceHeldPastTheLeaseIsTakenOverByTheOldestWaiterInTurn() throws Exception {
		long lease = TimeUnit.MILLISECONDS.toNanos(1);
		DeliveryGate gate = new DeliveryGate(1, lease, this.nanos::get);
		// Blocked on a socket: never given back.
		gate.enter();
		List<String> order = new CopyOnWriteArrayList<>();
		CountDownLatch release = new CountDownLatch(1);
		for (int i = 1; i <= WAITERS; i++) {
			String name = "w" + i;
			start(() -> {
				gate.enter();
				order.add(name);
				// Blocked on a socket too, until the test ends.
				release.await();
			});
			int queued = i;
			await().atMost(WAIT).until(() -> gate.getWaiting() == queued);
		}
		List<String> expected = new ArrayList<>();
		for (int i = 1; i <= WAITERS; i++) {
			expected.add("w" + i);
			// Each holder in turn blocks past its lease: the next waiter takes the place
			// over.
			this.nanos.addAndGet(2 * lease);
			int taken = i;
			await().atMost(WAIT).until(() -> order.size() == taken);
			assertThat(order).containsExactlyElementsOf(expected);
		}
		assertThat(gate.getOvertaken()).isEqualTo(WAITERS);
		assertThat(gate.getWaiting()).isZero();
		release.countDown();
	}

	@Test
	void aLaterArrivalDoesNotTakeOverAnExpiredPlaceBeforeTheWaiters() throws Exception {
		DeliveryGate gate = new DeliveryGate(1, TimeUnit.HOURS.toNanos(1), this.nanos::get);
		long first = gate.enter();
		List<String> order = new CopyOnWriteArrayList<>();
		for (int i = 1; i <= WAITERS; i++) {
			String name = "w" + i;
			start(() -> {
				long ticket = gate.enter();
				order.add(name);
				gate.exit(ticket);
			});
			int queued = i;
			await().atMost(WAIT).until(() -> gate.getWaiting() == queued);
		}
		// The holder is now past its lease: a drain arriving now must queue behind the
		// waiters, not take the place over ahead of them.
		this.nanos.addAndGet(TimeUnit.HOURS.toNanos(2));
		start(() -> {
			long ticket = gate.enter();
			order.add("late");
			gate.exit(ticket);
		});
		await().atMost(WAIT).until(() -> order.size() == WAITERS + 1);
		List<String> expected = new ArrayList<>();
		for (int i = 1; i <= WAITERS; i++) {
			expected.add("w" + i);
		}
		expected.add("late");
		assertThat(order).containsExactlyElementsOf(expected);
		gate.exit(first);
	}

	@Test
	void anInterruptedWaiterLeavesTheQueueAndPassesOnNothing() throws Exception {
		DeliveryGate gate = new DeliveryGate(1, TimeUnit.HOURS.toNanos(1), this.nanos::get);
		long first = gate.enter();
		CountDownLatch interrupted = new CountDownLatch(1);
		Thread leaving = start(() -> {
			try {
				gate.enter();
			}
			catch (InterruptedException ex) {
				interrupted.countDown();
			}
		});
		await().atMost(WAIT).until(() -> gate.getWaiting() == 1);
		List<String> order = new CopyOnWriteArrayList<>();
		start(() -> {
			long ticket = gate.enter();
			order.add("next");
			gate.exit(ticket);
		});
		await().atMost(WAIT).until(() -> gate.getWaiting() == 2);
		leaving.interrupt();
		assertThat(interrupted.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(gate.getWaiting()).isEqualTo(1);
		gate.exit(first);
		await().atMost(WAIT).until(() -> order.size() == 1);
		assertThat(gate.getWaiting()).isZero();
		// The place is free again.
		gate.exit(gate.enter());
	}

	private Thread start(Step step) {
		Thread thread = new Thread(() -> {
			try {
				step.run();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "gate-test-" + this.threads.size());
		thread.setDaemon(true);
		this.threads.add(thread);
		thread.start();
		return thread;
	}

	@FunctionalInterface
	interface Step {

		void run() throws InterruptedException;

	}

}
