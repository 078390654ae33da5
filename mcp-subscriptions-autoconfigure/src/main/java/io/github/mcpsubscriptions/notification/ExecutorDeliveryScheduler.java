package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsubscriptions.thread.ExecutorShutdown;
import io.github.mcpsubscriptions.thread.McpThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Delivers on virtual threads where {@code spring.threads.virtual.enabled} turns them on
 * and the JDK has them (21 and later), otherwise on a bounded pool of platform threads
 * ({@link McpThreads}). Either way at most {@code parallelism} drains run at once (a
 * {@link DeliveryGate}), so that delivery at saturation leaves the application's request
 * threads their share of the cores; a drain blocked on a client's socket for longer than
 * the lease stops counting. Delays run on one timer thread that only hands tasks over.
 * <p>
 * While drains wait for their turn, a drain that would write a lone notification may be
 * {@linkplain #gather(Runnable, long) gathered}: every drain gathered within one window
 * is handed over together when it ends. At saturation most writes then carry several
 * notifications, so delivery costs less per notification and catches up sooner. For the
 * same reason a lane's turn that comes less than the turn interval after its previous one
 * is {@linkplain #holdBack(Runnable, long, long) held back} until the interval has
 * passed, or until nothing new has reached it for a short bound: the last change of a
 * burst is not held for the spacing.
 *
 * @since 0.1.0
 */
public final class ExecutorDeliveryScheduler implements DeliveryScheduler, AutoCloseable {

	private static final Log logger = LogFactory.getLog(ExecutorDeliveryScheduler.class);

	/**
	 * How long a drain may hold its place before it is taken to be blocked on a socket.
	 */
	public static final Duration DEFAULT_LEASE = Duration.ofMillis(100);

	/** How long drains gathered at saturation wait, at most, before they run. */
	public static final Duration DEFAULT_GATHERING_WINDOW = Duration.ofMillis(100);

	/**
	 * How long, at least, between two turns of a lane of streams while delivery is
	 * saturated.
	 */
	public static final Duration DEFAULT_TURN_INTERVAL = Duration.ofMillis(300);

	/**
	 * How long, at most, a lane's turn is held back after the last hand-over to it: the
	 * last change of a burst waits no longer than this for the spacing of turns.
	 */
	static final long LAST_CHANGE_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	/** How many gathered drains one task runs, as the dispatcher hands them over. */
	static final int CHUNK = 64;

	private final ExecutorService delivery;

	private final ScheduledExecutorService timer;

	private final boolean virtual;

	private final DeliveryGate gate;

	private final long gatheringNanos;

	private final long turnIntervalNanos;

	private final Queue<Runnable> gathered = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean handOverScheduled = new AtomicBoolean();

	/**
	 * Create a scheduler whose drains may use every core.
	 * @param poolSize the size of the pool of platform threads
	 */
	public ExecutorDeliveryScheduler(int poolSize) {
		this(poolSize, Math.max(poolSize, Runtime.getRuntime().availableProcessors()), DEFAULT_LEASE);
	}

	/**
	 * Create a scheduler that gathers drains for {@link #DEFAULT_GATHERING_WINDOW}.
	 * @param poolSize the size of the pool of platform threads
	 * @param parallelism how many drains may run at once
	 * @param lease how long a drain may hold its place before the next one takes it over
	 */
	public ExecutorDeliveryScheduler(int poolSize, int parallelism, Duration lease) {
		this(poolSize, parallelism, lease, DEFAULT_GATHERING_WINDOW);
	}

	/**
	 * Create a scheduler whose lanes take their turns at saturation at most once per
	 * {@link #DEFAULT_TURN_INTERVAL}.
	 * @param poolSize the size of the pool of platform threads
	 * @param parallelism how many drains may run at once
	 * @param lease how long a drain may hold its place before the next one takes it over
	 * @param gatheringWindow how long drains gathered at saturation wait, at most; zero
	 * never gathers
	 */
	public ExecutorDeliveryScheduler(int poolSize, int parallelism, Duration lease, Duration gatheringWindow) {
		this(poolSize, parallelism, lease, gatheringWindow, DEFAULT_TURN_INTERVAL);
	}

	/**
	 * Create a scheduler.
	 * @param poolSize the size of the pool of platform threads
	 * @param parallelism how many drains may run at once
	 * @param lease how long a drain may hold its place before the next one takes it over
	 * @param gatheringWindow how long drains gathered at saturation wait, at most; zero
	 * never gathers
	 * @param turnInterval how long, at least, between two turns of a lane while delivery
	 * is saturated; zero never holds a turn back
	 */
	public ExecutorDeliveryScheduler(int poolSize, int parallelism, Duration lease, Duration gatheringWindow,
			Duration turnInterval) {
		this(poolSize, parallelism, lease, gatheringWindow, turnInterval, McpThreads.platform());
	}

	ExecutorDeliveryScheduler(int poolSize, int parallelism, Duration lease, boolean virtualThreadsIfAvailable) {
		this(poolSize, parallelism, lease, DEFAULT_GATHERING_WINDOW, DEFAULT_TURN_INTERVAL,
				McpThreads.of(virtualThreadsIfAvailable));
	}

	/**
	 * Create a scheduler that delivers on the threads given.
	 * @param poolSize the size of the pool where the threads are platform threads
	 * @param parallelism how many drains may run at once
	 * @param lease how long a drain may hold its place before the next one takes it over
	 * @param gatheringWindow how long drains gathered at saturation wait, at most; zero
	 * never gathers
	 * @param turnInterval how long, at least, between two turns of a lane while delivery
	 * is saturated; zero never holds a turn back
	 * @param threads virtual or platform delivery threads
	 */
	public ExecutorDeliveryScheduler(int poolSize, int parallelism, Duration lease, Duration gatheringWindow,
			Duration turnInterval, McpThreads threads) {
		if (gatheringWindow.isNegative()) {
			throw new IllegalArgumentException("The gathering window must not be negative, was " + gatheringWindow);
		}
		if (turnInterval.isNegative()) {
			throw new IllegalArgumentException("The turn interval must not be negative, was " + turnInterval);
		}
		this.gatheringNanos = gatheringWindow.toNanos();
		this.turnIntervalNanos = turnInterval.toNanos();
		this.virtual = threads.isVirtual();
		this.delivery = threads.deliveryExecutor("mcp-delivery-", poolSize);
		this.gate = new DeliveryGate(parallelism, lease.toNanos(), System::nanoTime);
		logger.info((this.virtual ? "MCP notifications are written on virtual threads"
				: "MCP notifications are written on a pool of " + poolSize
						+ " threads (spring.threads.virtual.enabled on JDK 21+ uses virtual threads)")
				+ "; under load, delivery keeps at most " + parallelism + " of "
				+ Runtime.getRuntime().availableProcessors()
				+ " processors busy (mcp.notifications.delivery-cpu-share)");
		this.timer = McpThreads.scheduled("mcp-delivery-timer-1");
	}

	/**
	 * How many drains a share of the cores allows.
	 * @param share the share, above 0
	 * @param cores the cores
	 * @return the parallelism, at least 1
	 */
	public static int parallelism(double share, int cores) {
		if (!(share > 0)) {
			throw new IllegalArgumentException("The delivery share of the cores must be above 0, was " + share);
		}
		return Math.max(1, (int) Math.floor(share * cores));
	}

	/**
	 * How many drains may run at once.
	 * @return the parallelism
	 */
	public int getParallelism() {
		return this.gate.getParallelism();
	}

	/**
	 * How often a drain blocked past the lease was overtaken by another.
	 * @return the count
	 */
	public long getOvertaken() {
		return this.gate.getOvertaken();
	}

	/**
	 * Whether delivery runs on virtual threads.
	 * @return whether it does
	 */
	public boolean isVirtual() {
		return this.virtual;
	}

	@Override
	public void execute(Runnable task) {
		try {
			this.delivery.execute(() -> runGated(task));
		}
		catch (RejectedExecutionException ex) {
			// Shutting down: what waits is dropped with the streams.
		}
	}

	private void runGated(Runnable task) {
		long ticket;
		try {
			ticket = this.gate.enter();
		}
		catch (InterruptedException ex) {
			// Shutting down: what waits is dropped with the streams.
			Thread.currentThread().interrupt();
			return;
		}
		try {
			task.run();
		}
		finally {
			this.gate.exit(ticket);
		}
	}

	/**
	 * How long drains gathered at saturation wait, at most.
	 * @return the window, zero when drains are never gathered
	 */
	public Duration getGatheringWindow() {
		return Duration.ofNanos(this.gatheringNanos);
	}

	/** Whether drains wait for their turn. */
	boolean isSaturated() {
		return this.gate.hasWaiters();
	}

	@Override
	public boolean gather(Runnable task, long waitedMillis) {
		// One published a window ago already is late: it is not held back further.
		if (this.gatheringNanos == 0 || TimeUnit.MILLISECONDS.toNanos(waitedMillis) >= this.gatheringNanos
				|| !isSaturated()) {
			return false;
		}
		this.gathered.add(task);
		// The first drain of a window starts its timer; the others join it.
		if (this.handOverScheduled.compareAndSet(false, true)) {
			try {
				this.timer.schedule(this::handOverGathered, this.gatheringNanos, TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// Shutting down: what waits is dropped with the streams.
			}
		}
		return true;
	}

	/**
	 * How long, at least, between two turns of a lane while delivery is saturated.
	 * @return the interval, zero when turns are never held back
	 */
	public Duration getTurnInterval() {
		return Duration.ofNanos(this.turnIntervalNanos);
	}

	@Override
	public boolean holdBack(Runnable task, long sinceLastTurnNanos, long sinceLastHandOverNanos) {
		long delay = Math.min(this.turnIntervalNanos - sinceLastTurnNanos,
				LAST_CHANGE_BOUND_NANOS - sinceLastHandOverNanos);
		if (delay <= 0 || !isSaturated()) {
			return false;
		}
		schedule(task, Duration.ofNanos(delay));
		return true;
	}

	/** Runs on the timer: the window's drains go to the delivery threads, in chunks. */
	private void handOverGathered() {
		// Cleared first: a drain gathered from now on starts a new window or is taken
		// below.
		this.handOverScheduled.set(false);
		List<Runnable> chunk = new ArrayList<>(CHUNK);
		Runnable drain;
		while ((drain = this.gathered.poll()) != null) {
			chunk.add(drain);
			if (chunk.size() == CHUNK) {
				execute(inOneTask(chunk));
				chunk = new ArrayList<>(CHUNK);
			}
		}
		if (!chunk.isEmpty()) {
			execute(inOneTask(chunk));
		}
	}

	/**
	 * Drains to run one after the other in one task, which takes one place at the gate.
	 * @param drains the drains
	 * @return the task
	 */
	static Runnable inOneTask(List<Runnable> drains) {
		return (drains.size() == 1) ? drains.get(0) : () -> runAll(drains);
	}

	/**
	 * Run drains one after the other: every one runs, whatever the others throw (one that
	 * did not would never run again); the first failure is thrown after.
	 * @param drains the drains
	 */
	static void runAll(List<Runnable> drains) {
		Throwable failure = null;
		for (Runnable drain : drains) {
			try {
				drain.run();
			}
			catch (Throwable ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure instanceof RuntimeException runtime) {
			throw runtime;
		}
		if (failure instanceof Error error) {
			throw error;
		}
	}

	@Override
	public void schedule(Runnable task, Duration delay) {
		try {
			this.timer.schedule(() -> execute(task), delay.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Shutting down.
		}
	}

	@Override
	public void close() {
		ExecutorShutdown.now(this.timer, this.delivery);
	}

}
