package io.github.mcpsubscriptions.test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.notification.DeliveryScheduler;

/**
 * Runs drains at once on the caller's thread, and delayed tasks when the test moves the
 * clock past them.
 */
public final class ManualDeliveryScheduler implements DeliveryScheduler {

	private final MutableClock clock;

	private final List<Timed> timed = new ArrayList<>();

	public ManualDeliveryScheduler(MutableClock clock) {
		this.clock = clock;
	}

	@Override
	public void execute(Runnable task) {
		task.run();
	}

	@Override
	public void schedule(Runnable task, Duration delay) {
		this.timed.add(new Timed(this.clock.instant().plus(delay), task));
	}

	/**
	 * Move the clock and run the tasks that became due.
	 * @param duration how far
	 */
	public void advance(Duration duration) {
		this.clock.advance(duration);
		List<Timed> due = this.timed.stream().filter((t) -> !t.at().isAfter(this.clock.instant())).toList();
		this.timed.removeAll(due);
		due.forEach((t) -> t.task().run());
	}

	public int pendingTimers() {
		return this.timed.size();
	}

	private record Timed(Instant at, Runnable task) {
	}

}
