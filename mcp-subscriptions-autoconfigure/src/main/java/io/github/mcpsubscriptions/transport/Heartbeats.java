package io.github.mcpsubscriptions.transport;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.mcpsubscriptions.thread.McpThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The liveness of every open stream, of both eras: a wheel of slots that one daemon
 * thread turns, visiting one slot per tick and every stream twice per heartbeat interval
 * ({@link AsyncSseStream#visit()}). A stream that wrote since the visit before costs
 * nothing; one that had nothing written for two visits gets a heartbeat comment, so an
 * idle stream gets one per interval, and a client that left without a word is found
 * within two intervals (its first heartbeat succeeds, the next fails).
 * <p>
 * Nothing here is a task per stream: a stream is one entry in its slot's set from open to
 * end, and the thread wakes once per tick whatever the number of streams. Streams are
 * placed by their sequence number, so a burst of streams opened together is spread over
 * the whole half interval rather than written in one millisecond. The thread is not a
 * delivery thread: heartbeats never wait for, nor hold, a place that notifications need,
 * and a heartbeat write never blocks (the stream is written through the container's
 * non-blocking I/O, and one that has bytes pending is left to the container and the write
 * timeout).
 */
final class Heartbeats implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(Heartbeats.class);

	/** The shortest tick: finer spreading would only wake the thread more often. */
	static final Duration MIN_TICK = Duration.ofMillis(50);

	/** The most slots: past it each tick visits more streams, which costs no more. */
	static final int MAX_SLOTS = 600;

	private final Set<AsyncSseStream>[] slots;

	private final long tickNanos;

	private final AtomicLong heartbeats = new AtomicLong();

	private final Object lifecycle = new Object();

	private volatile @Nullable ScheduledExecutorService executor;

	private boolean closed;

	/** Whether {@link #add} starts the thread; tests turn the wheel themselves. */
	private final boolean autoStart;

	/** The slot the next tick visits; only the heartbeat thread touches it. */
	private int next;

	/**
	 * Create the heartbeats; the thread starts with the first stream.
	 * @param interval the heartbeat interval; zero for none (streams are then found gone
	 * only when a write fails)
	 */
	Heartbeats(Duration interval) {
		this(interval, true);
	}

	@SuppressWarnings("unchecked")
	Heartbeats(Duration interval, boolean autoStart) {
		this.autoStart = autoStart;
		if (interval.isNegative()) {
			throw new IllegalArgumentException("The heartbeat interval must not be negative, was " + interval);
		}
		long half = interval.toNanos() / 2;
		int count = (int) Math.max(1, Math.min(MAX_SLOTS, half / MIN_TICK.toNanos()));
		this.tickNanos = interval.isZero() ? 0 : Math.max(1, half / count);
		this.slots = new Set[interval.isZero() ? 0 : count];
		for (int i = 0; i < this.slots.length; i++) {
			this.slots[i] = ConcurrentHashMap.newKeySet();
		}
	}

	/**
	 * Watch a stream until {@link #remove} or its end.
	 * @param stream the stream
	 */
	void add(AsyncSseStream stream) {
		if (this.slots.length == 0) {
			return;
		}
		slot(stream).add(stream);
		if (this.autoStart) {
			start();
		}
	}

	/**
	 * Stop watching a stream, at its end.
	 * @param stream the stream
	 */
	void remove(AsyncSseStream stream) {
		if (this.slots.length != 0) {
			slot(stream).remove(stream);
		}
	}

	/**
	 * How many heartbeat comments were written.
	 * @return the count
	 */
	long getHeartbeatCount() {
		return this.heartbeats.get();
	}

	/**
	 * The time between two ticks, each visiting one slot.
	 * @return the tick, zero when heartbeats are off
	 */
	Duration getTick() {
		return Duration.ofNanos(this.tickNanos);
	}

	/**
	 * How many slots the streams are spread over.
	 * @return the count
	 */
	int getSlotCount() {
		return this.slots.length;
	}

	private Set<AsyncSseStream> slot(AsyncSseStream stream) {
		return this.slots[(int) Math.floorMod(stream.sequence(), (long) this.slots.length)];
	}

	private void start() {
		if (this.executor != null) {
			return;
		}
		synchronized (this.lifecycle) {
			if (this.executor != null || this.closed) {
				return;
			}
			ScheduledThreadPoolExecutor executor = McpThreads.scheduled("mcp-heartbeats");
			executor.scheduleAtFixedRate(this::turn, this.tickNanos, this.tickNanos, TimeUnit.NANOSECONDS);
			this.executor = executor;
		}
	}

	/**
	 * One tick on the heartbeat thread: even an {@link Error} is logged rather than
	 * ending the heartbeats of every stream for good.
	 */
	private void turn() {
		try {
			tick();
		}
		catch (Throwable ex) {
			logger.error("A round of heartbeats failed", ex);
		}
	}

	/** Visit the next slot's streams. */
	void tick() {
		Set<AsyncSseStream> slot = this.slots[this.next];
		this.next = (this.next + 1 == this.slots.length) ? 0 : this.next + 1;
		long written = 0;
		for (AsyncSseStream stream : slot) {
			try {
				if (stream.visit()) {
					written++;
				}
			}
			catch (RuntimeException ex) {
				// One stream's failure must not end the heartbeats of all the others.
				logger.debug("A heartbeat failed", ex);
			}
		}
		if (written != 0) {
			this.heartbeats.addAndGet(written);
		}
	}

	/** Stop the thread, when the endpoint closes. */
	@Override
	public void close() {
		synchronized (this.lifecycle) {
			this.closed = true;
			if (this.executor != null) {
				this.executor.shutdownNow();
			}
		}
	}

}
