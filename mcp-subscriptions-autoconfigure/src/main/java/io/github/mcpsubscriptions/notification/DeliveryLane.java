package io.github.mcpsubscriptions.notification;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A few dozen subscribers whose notifications are queued in their outboxes, and then
 * written, by one task on a delivery thread. The dispatcher's thread only decides who is
 * told what; touching each subscriber's outbox there would read thousands of them for
 * every change on one thread, and read them again on the thread that drains them. Here a
 * subscriber's notifications are queued while its outbox is at hand, every change that
 * waits for the lane at once, and the drains they start run right after, in the same
 * task. What waits for a lane is taken whole by its next task, so it waits no longer than
 * one turn of the delivery threads, or, while delivery is saturated, than the scheduler's
 * turn interval after the lane's previous turn, and no longer than its bound after the
 * last hand-over ({@link DeliveryScheduler#holdBack}).
 * <p>
 * A lane runs at most one task at a time and takes what the dispatcher hands it in order,
 * so what the dispatcher decides for one subscriber reaches its outbox in the order it
 * was decided.
 */
final class DeliveryLane implements Runnable {

	private static final Log logger = LogFactory.getLog(DeliveryLane.class);

	/** How many subscribers a lane is given. */
	static final int SIZE = ExecutorDeliveryScheduler.CHUNK;

	private final DeliveryScheduler scheduler;

	/** Whether a subscriber still has a subscription, by its URI. */
	private final BiPredicate<Subscriber, String> subscribed;

	private final Queue<Offers> waiting = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean scheduled = new AtomicBoolean();

	/**
	 * When the dispatcher last handed something over ({@link System#nanoTime()}): a turn
	 * held back at saturation is not held past the scheduler's bound after it, so the
	 * last change of a burst is written soon.
	 */
	private volatile long lastHandOver;

	private final NotificationStats stats;

	/** When its last turn began ({@link System#nanoTime()}); on the running task only. */
	private long lastTurn;

	/** Whether it has had a turn: until then {@link #lastTurn} means nothing. */
	private boolean turned;

	/**
	 * What the dispatcher's current task gives this lane; on the dispatcher's thread
	 * only.
	 */
	@Nullable Offers building;

	/** How many registered subscribers have this lane; guarded by the dispatcher. */
	int members;

	DeliveryLane(DeliveryScheduler scheduler, BiPredicate<Subscriber, String> subscribed, NotificationStats stats) {
		this.scheduler = scheduler;
		this.subscribed = subscribed;
		this.stats = stats;
	}

	/**
	 * Hand over what a task of the dispatcher decided for this lane's subscribers.
	 * @param offers what they are told, in order
	 */
	void handOver(Offers offers) {
		this.lastHandOver = System.nanoTime();
		this.waiting.add(offers);
		if (this.scheduled.compareAndSet(false, true)) {
			this.scheduler.execute(this);
		}
	}

	@Override
	public void run() {
		long now = System.nanoTime();
		if (this.scheduler.holdBack(this, this.turned ? now - this.lastTurn : Long.MAX_VALUE,
				now - this.lastHandOver)) {
			// Still scheduled: what is handed over meanwhile waits for the held turn.
			this.stats.heldBack.increment();
			return;
		}
		this.turned = true;
		this.lastTurn = now;
		List<Runnable> drains = new ArrayList<>();
		try {
			// Everything that waits: in the outboxes it is coalesced and bounded by their
			// capacity, while here nothing bounds it.
			Offers offers;
			while ((offers = this.waiting.poll()) != null) {
				offers.queue(drains, this.subscribed);
			}
		}
		finally {
			try {
				// After every change taken is queued: each drain then writes them
				// together.
				ExecutorDeliveryScheduler.runAll(drains);
			}
			finally {
				this.scheduled.set(false);
				// A hand-over that came after the last poll, or one left for the next
				// task.
				if (!this.waiting.isEmpty() && this.scheduled.compareAndSet(false, true)) {
					this.scheduler.execute(this);
				}
			}
		}
	}

	/**
	 * What one task of the dispatcher tells the subscribers of a lane, in order: a
	 * notification to queue or a test of the subscriptions to resync, each with how many
	 * times its subscriber had unsubscribed when it was decided.
	 */
	static final class Offers {

		// A change gives most of a lane's subscribers one notification each: room for
		// that
		// from the start, rather than copies as it fills.
		private Subscriber[] subscribers = new Subscriber[SIZE];

		private Object[] actions = new Object[SIZE];

		private int[] unsubscribed = new int[SIZE];

		private int size;

		void tell(Subscriber subscriber, OutboundNotification notification) {
			add(subscriber, notification);
		}

		void resync(Subscriber subscriber, Predicate<String> subscriptions) {
			add(subscriber, subscriptions);
		}

		private void add(Subscriber subscriber, Object action) {
			if (this.size == this.subscribers.length) {
				int grown = this.size * 2;
				this.subscribers = Arrays.copyOf(this.subscribers, grown);
				this.actions = Arrays.copyOf(this.actions, grown);
				this.unsubscribed = Arrays.copyOf(this.unsubscribed, grown);
			}
			this.subscribers[this.size] = subscriber;
			this.actions[this.size] = action;
			this.unsubscribed[this.size++] = subscriber.getUnsubscribed();
		}

		@SuppressWarnings("unchecked")
		void queue(List<Runnable> drains, BiPredicate<Subscriber, String> subscribed) {
			for (int i = 0; i < this.size; i++) {
				Subscriber subscriber = this.subscribers[i];
				try {
					if (this.actions[i] instanceof OutboundNotification notification) {
						String subscribedUri = notification.subscribedUri();
						// Unsubscribed since: what was decided before must not be told
						// after.
						if (subscribedUri != null && subscriber.getUnsubscribed() != this.unsubscribed[i]
								&& !subscribed.test(subscriber, subscribedUri)) {
							continue;
						}
						Runnable drain = subscriber.getOutbox().queue(notification);
						if (drain != null) {
							drains.add(drain);
						}
					}
					else {
						subscriber.getOutbox().resync((Predicate<String>) this.actions[i]);
					}
				}
				catch (RuntimeException ex) {
					logger.error("Queueing an MCP notification for " + subscriber + " failed", ex);
				}
			}
		}

	}

}
