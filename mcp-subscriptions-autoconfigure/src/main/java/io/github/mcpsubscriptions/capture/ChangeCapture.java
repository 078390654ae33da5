package io.github.mcpsubscriptions.capture;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.mcpsubscriptions.capture.CaptureDatabase.Batch;
import io.github.mcpsubscriptions.capture.CaptureDatabase.Cursor;
import io.github.mcpsubscriptions.capture.CaptureSink.Positioned;
import io.github.mcpsubscriptions.notification.ResourceChange;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * Reads the committed row changes the database recorded and publishes them as changes of
 * the mapped resources, on a thread and a connection of its own.
 * <p>
 * The reader publishes a batch, then stores its position: a change is never skipped, and
 * a reader stopped between the two reads the batch again (a shared log's sink drops what
 * it already took). One reader at a time holds the database's lease; on other nodes the
 * capture waits and takes over when the reader's connection ends. A lost connection is
 * opened again with a back-off; meanwhile the health is down, and what was committed is
 * read when it is back. A row whose URI cannot be built is counted, logged once per
 * table, and skipped.
 */
public class ChangeCapture implements SmartLifecycle {

	/** The {@code change} attribute's name, as for mapped entities. */
	public static final String CHANGE = ResourceChange.CHANGE;

	/** The name the capture's connections give themselves. */
	public static final String APPLICATION_NAME = "mcp-change-capture";

	private static final Log logger = LogFactory.getLog(ChangeCapture.class);

	private final CaptureDatabase database;

	private final CaptureConnections connections;

	private final List<CapturedTable> tables;

	private final CaptureSink sink;

	private final CaptureStats stats;

	private final Settings settings;

	private final Clock clock;

	/** The tables by the database's qualified names, known after {@link #prepare()}. */
	private volatile Map<String, CapturedTable> byName = Map.of();

	/** Tables whose rows were rejected or unknown once, so that the log says so once each. */
	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	private volatile @Nullable Thread reader;

	private volatile boolean running;

	private volatile @Nullable Connection connection;

	/**
	 * Create a capture.
	 * @param database what the database does
	 * @param connections opens the capture's connections
	 * @param tables the captured tables
	 * @param sink where changes go
	 * @param stats counts what the capture does
	 * @param settings how it reads
	 * @param clock the clock for the lag
	 */
	public ChangeCapture(CaptureDatabase database, CaptureConnections connections, List<CapturedTable> tables,
			CaptureSink sink, CaptureStats stats, Settings settings, Clock clock) {
		this.database = database;
		this.connections = connections;
		this.tables = List.copyOf(tables);
		this.sink = sink;
		this.stats = stats;
		this.settings = settings;
		this.clock = clock;
	}

	/**
	 * Checks the configuration against the database, installs the capture's tables and
	 * triggers if asked to, and creates the cursor on the first start: at start-up, so
	 * that a mistake stops the application before its first change.
	 * @throws InvalidCaptureException if the configuration does not fit the database
	 * @throws IllegalStateException if the database cannot be reached
	 */
	public void prepare() {
		try (Connection prepared = this.connections.open()) {
			List<String> problems = this.database.check(prepared, this.tables);
			if (!problems.isEmpty()) {
				throw new InvalidCaptureException(problems);
			}
			if (this.settings.installSchema()) {
				this.database.install(prepared, this.tables);
			}
			this.byName = Map.copyOf(this.database.qualifiedNames(prepared, this.tables));
			// On the first start, the capture begins here: every change committed after the
			// application started is delivered, even one made before the reader's first read.
			this.database.cursor(prepared);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("The MCP change capture could not prepare the database: " + ex.getMessage(),
					ex);
		}
	}

	@Override
	public void start() {
		logger.info("The MCP change capture is on: changes of "
				+ this.tables.stream().map(CapturedTable::name).collect(Collectors.joining(", "))
				+ " become notifications (mcp.capture.tables)");
		this.running = true;
		Thread thread = new Thread(this::readLoop, "mcp-change-capture");
		thread.setDaemon(true);
		this.reader = thread;
		thread.start();
	}

	@Override
	public void stop() {
		this.running = false;
		Thread thread = this.reader;
		this.reader = null;
		if (thread != null) {
			thread.interrupt();
			try {
				thread.join(this.settings.pollInterval().toMillis() + 2000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (thread.isAlive()) {
				// Stuck in a read: closing its connection ends the read.
				close(this.connection);
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.reader != null;
	}

	@Override
	public int getPhase() {
		// Last, with the cluster's log reader (a dependency, so it starts before the
		// capture and stops after it): what the capture publishes is read.
		return DEFAULT_PHASE;
	}

	private void readLoop() {
		long failures = 0;
		Connection current = null;
		Reading reading = null;
		try {
			while (this.running) {
				try {
					if (current == null) {
						current = this.connections.open();
						this.connection = current;
						this.database.open(current);
						reading = null;
						this.stats.connected(true, false);
						if (failures > 0) {
							logger.info("The MCP change capture reads again after " + failures + " failed attempt(s)");
						}
						failures = 0;
					}
					if (reading == null) {
						if (!this.database.tryLease(current)) {
							// Another node reads; this one takes over when its connection ends.
							this.database.awaitChanges(current, this.settings.pollInterval());
							continue;
						}
						Cursor cursor = this.database.cursor(current);
						reading = new Reading(cursor.id(), cursor.position());
						this.stats.connected(true, true);
						this.stats.position(reading.position);
						logger.debug("The MCP change capture reads from " + reading.position);
					}
					if (System.nanoTime() - reading.nextPrune >= 0) {
						prune(current, reading);
						reading.nextPrune = System.nanoTime() + pruneInterval().toNanos();
					}
					Batch batch = this.database.read(current, reading.position, this.settings.batchSize());
					if (!batch.rows().isEmpty()) {
						publish(reading.source, batch.rows());
						this.database.savePosition(current, batch.readUpTo());
					}
					reading.position = reading.position.max(batch.readUpTo());
					this.stats.position(reading.position);
					if (batch.rows().size() < this.settings.batchSize()) {
						this.database.awaitChanges(current, this.settings.pollInterval());
					}
				}
				catch (Throwable ex) {
					// An Error too: the application would otherwise stop hearing of changes for good.
					if (!this.running) {
						return;
					}
					current = close(current);
					this.connection = null;
					reading = null;
					failures++;
					this.stats.error();
					this.stats.connected(false, false);
					if (failures == 1) {
						logger.warn("The MCP change capture lost its connection to the database or failed to read; "
								+ "retrying, and changes committed meanwhile are read when it is back", ex);
					}
					backOff(failures);
				}
			}
		}
		finally {
			close(current);
			this.connection = null;
			this.stats.connected(false, false);
		}
	}

	private Duration pruneInterval() {
		Duration tenth = this.settings.retention().dividedBy(10);
		Duration minute = Duration.ofMinutes(1);
		return (tenth.compareTo(minute) > 0) ? minute : (tenth.isZero() ? Duration.ofSeconds(1) : tenth);
	}

	/**
	 * Prunes what is past the retention. Unread rows pruned (the application was down, or
	 * stopped, for longer than the retention) are a gap: subscribers are told to re-read
	 * before the position moves past it, in one transaction with the delete.
	 */
	private void prune(Connection current, Reading reading) throws SQLException {
		current.setAutoCommit(false);
		try {
			CapturePosition pruned = this.database.prune(current, this.settings.retention());
			if (pruned != null && pruned.compareTo(reading.position) > 0) {
				logger.warn("Captured changes up to " + pruned + " were pruned (older than mcp.capture.retention="
						+ this.settings.retention() + ") before the MCP change capture read them (it had read up to "
						+ reading.position + "); subscribers of the captured resources are told to re-read");
				this.sink.resync(this.tables);
				this.stats.resynced();
				this.database.savePosition(current, pruned);
				reading.position = pruned;
			}
			current.commit();
		}
		catch (SQLException | RuntimeException ex) {
			try {
				current.rollback();
			}
			catch (SQLException rollback) {
				ex.addSuppressed(rollback);
			}
			throw ex;
		}
		finally {
			current.setAutoCommit(true);
		}
	}

	private void publish(String source, List<CapturedRow> rows) {
		List<Positioned> changes = new ArrayList<>(rows.size());
		List<Instant> written = new ArrayList<>(rows.size());
		for (CapturedRow row : rows) {
			CapturedTable table = this.byName.get(row.table());
			if (table == null) {
				if (this.warned.add("unknown:" + row.table())) {
					logger.info("Captured changes of " + row.table() + " are skipped: it is not in mcp.capture.tables "
							+ "(drop its trigger if it should not be captured; logged once per table)");
				}
				continue;
			}
			switch (row.operation()) {
				case INSERT -> add(changes, written, row, table, table.uri(row.newValues()), ResourceChange.CREATED, 0);
				case DELETE -> add(changes, written, row, table, table.uri(row.oldValues()), ResourceChange.DELETED, 0);
				case UPDATE -> {
					String uri = table.uri(row.newValues());
					if (row.oldValues() == null) {
						add(changes, written, row, table, uri, ResourceChange.UPDATED, 0);
					}
					else {
						String previous = table.uri(row.oldValues());
						if (previous != null && uri != null && previous.equals(uri)) {
							add(changes, written, row, table, uri, ResourceChange.UPDATED, 0);
						}
						else {
							// A column of the template changed: the resource moved to another URI.
							add(changes, written, row, table, previous, ResourceChange.DELETED, 0);
							add(changes, written, row, table, uri, ResourceChange.CREATED, 1);
						}
					}
				}
			}
		}
		if (changes.isEmpty()) {
			return;
		}
		this.sink.publish(source, changes);
		Instant published = this.clock.instant();
		for (Instant at : written) {
			this.stats.published(Duration.between(at, published));
		}
	}

	private void add(List<Positioned> changes, List<Instant> written, CapturedRow row, CapturedTable table,
			@Nullable String uri, String change, int part) {
		if (uri == null) {
			this.stats.rejected();
			if (this.warned.add("rejected:" + row.table())) {
				logger.warn("A captured change of " + row.table() + " at " + row.position()
						+ " is skipped: its URI cannot be built from \"" + table.template().getTemplate()
						+ "\" (a column is null or its value does not fit the template); counted in "
						+ "mcp.capture.rejected, logged once per table");
			}
			return;
		}
		changes.add(new Positioned(new ResourceChange(uri, Map.of(CHANGE, change), this.clock.instant()),
				row.position(), part));
		written.add(row.writtenAt());
	}

	private static @Nullable Connection close(@Nullable Connection connection) {
		if (connection != null) {
			try {
				connection.close();
			}
			catch (SQLException | RuntimeException ex) {
				logger.debug("Could not close the MCP change capture's connection", ex);
			}
		}
		return null;
	}

	private void backOff(long failures) {
		long millis = Math.min(this.settings.maxBackOff().toMillis(), 100L << Math.min(failures, 10));
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
	}

	/**
	 * The capture's state while this node holds the lease.
	 */
	private static final class Reading {

		final String source;

		CapturePosition position;

		long nextPrune = System.nanoTime();

		Reading(String source, CapturePosition position) {
			this.source = source;
			this.position = position;
		}

	}

	/**
	 * How the capture reads.
	 *
	 * @param batchSize the most rows one read takes
	 * @param pollInterval the longest wait for a wake-up before reading again
	 * @param retention how long recorded rows are kept
	 * @param maxBackOff the longest wait between reconnection attempts
	 * @param installSchema whether the tables and triggers are installed at start-up
	 */
	public record Settings(int batchSize, Duration pollInterval, Duration retention, Duration maxBackOff,
			boolean installSchema) {

		public Settings {
			if (batchSize < 1) {
				throw new IllegalArgumentException("mcp.capture.batch-size must be at least 1, was " + batchSize);
			}
			if (pollInterval.isNegative() || pollInterval.isZero()) {
				throw new IllegalArgumentException("mcp.capture.poll-interval must be positive, was " + pollInterval);
			}
			if (retention.isNegative() || retention.isZero()) {
				throw new IllegalArgumentException("mcp.capture.retention must be positive, was " + retention);
			}
		}

	}

}
