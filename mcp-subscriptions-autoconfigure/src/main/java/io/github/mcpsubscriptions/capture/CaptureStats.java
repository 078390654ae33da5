package io.github.mcpsubscriptions.capture;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * What the change capture has done, for meters and health.
 *
 * @since 0.1.0
 */
public class CaptureStats {

	private final LongAdder changes = new LongAdder();

	private final LongAdder rejected = new LongAdder();

	private final LongAdder skippedEvents = new LongAdder();

	private final LongAdder resyncs = new LongAdder();

	private final LongAdder errors = new LongAdder();

	private final LongAdder tablesRenamed = new LongAdder();

	private final List<Consumer<Duration>> lagRecorders = new CopyOnWriteArrayList<>();

	private volatile boolean connected;

	private volatile boolean reading;

	private volatile @Nullable CapturePosition position;

	private volatile Duration waiting = Duration.ZERO;

	private volatile CaptureDatabase.@Nullable Hold hold;

	void published(Duration lag) {
		this.changes.increment();
		for (Consumer<Duration> recorder : this.lagRecorders) {
			recorder.accept(lag.isNegative() ? Duration.ZERO : lag);
		}
	}

	void rejected() {
		this.rejected.increment();
	}

	void skippedEvent() {
		this.skippedEvents.increment();
	}

	void resynced() {
		this.resyncs.increment();
	}

	void error() {
		this.errors.increment();
	}

	void connected(boolean connected, boolean reading) {
		this.connected = connected;
		this.reading = reading;
	}

	void position(CapturePosition position) {
		this.position = position;
	}

	void tableRenamed() {
		this.tablesRenamed.increment();
	}

	void held(Duration waiting, CaptureDatabase.@Nullable Hold pastThreshold) {
		this.waiting = waiting;
		this.hold = pastThreshold;
	}

	/**
	 * Be told the lag from the write of each published change to its publication.
	 * @param recorder called on the capture's thread; it must return quickly
	 */
	public void addLagRecorder(Consumer<Duration> recorder) {
		this.lagRecorders.add(recorder);
	}

	/**
	 * How many captured changes were published.
	 * @return the count
	 */
	public long getChanges() {
		return this.changes.sum();
	}

	/**
	 * How many captured rows were skipped because their URI could not be built (their
	 * recorded key could not be read, or a value is missing or does not fit the
	 * template).
	 * @return the count
	 */
	public long getRejected() {
		return this.rejected.sum();
	}

	/**
	 * How many changes the application published for captured resources and that were not
	 * published again (the capture publishes them).
	 * @return the count
	 */
	public long getSkippedEvents() {
		return this.skippedEvents.sum();
	}

	/**
	 * How many times the capture found unread changes pruned and told subscribers to
	 * re-read.
	 * @return the count
	 */
	public long getResyncs() {
		return this.resyncs.sum();
	}

	/**
	 * How many times the capture's connection or a read failed.
	 * @return the count
	 */
	public long getErrors() {
		return this.errors.sum();
	}

	/**
	 * Whether the capture's connection works.
	 * @return whether it is connected
	 */
	public boolean isConnected() {
		return this.connected;
	}

	/**
	 * Whether this node reads the changes (it holds the lease); otherwise another node
	 * does.
	 * @return whether this node reads
	 */
	public boolean isReading() {
		return this.reading;
	}

	/**
	 * The position read up to, once this node has read.
	 * @return the position, or {@code null}
	 */
	public @Nullable CapturePosition getPosition() {
		return this.position;
	}

	/**
	 * How many captured tables were found renamed, moved or dropped while the capture
	 * ran.
	 * @return the count
	 */
	public long getTablesRenamed() {
		return this.tablesRenamed.sum();
	}

	/**
	 * How long the oldest captured change of an ended transaction has waited behind a
	 * transaction still open, when the capture last looked.
	 * @return the time, zero when none waits
	 */
	public Duration getWaiting() {
		return this.waiting;
	}

	/**
	 * The hold of the capture, once changes have waited longer than
	 * {@code mcp.capture.hold-warning-threshold}.
	 * @return the hold, or {@code null} if the capture is not held
	 */
	public CaptureDatabase.@Nullable Hold getHold() {
		return this.hold;
	}

}
