package io.github.mcpsubscriptions.capture;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.mcpsubscriptions.capture.CaptureDatabase.Batch;
import io.github.mcpsubscriptions.capture.CaptureDatabase.Cursor;
import io.github.mcpsubscriptions.capture.CaptureDatabase.Hold;
import io.github.mcpsubscriptions.capture.CaptureSink.Positioned;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.thread.McpThreads;
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
 * it already took). With a shared sink (a cluster's log) one reader at a time holds the
 * database's lease; on other nodes the capture waits and takes over when the reader's
 * connection ends. Without one, every node reads for itself (its subscribers hear only
 * what it publishes), and the lease only says which node stores the position. A lost
 * connection, or a read that fails, is retried with a back-off that grows until a read
 * succeeds again; meanwhile the health is down, and what was committed is read when it is
 * back. A row whose URI cannot be built is counted, logged once per table, and skipped. A
 * transaction left open that holds changes back, and a captured table renamed or dropped,
 * are reported.
 *
 * @since 0.1.0
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

	/**
	 * The tables by the database's qualified names, known after {@link #prepare()}; a
	 * table renamed while the capture runs is known by both names.
	 */
	private volatile Map<String, CapturedTable> byName = Map.of();

	/** The tables' stable ids (PostgreSQL: oids) and the names last seen for them. */
	private final Map<Long, String> names = new HashMap<>();

	/** The tables by their stable ids. */
	private final Map<Long, CapturedTable> byId = new HashMap<>();

	/** Whether every node hears what the sink takes: then one node at a time reads. */
	private final boolean shared;

	/** Where a node that does not hold the lease begins: the horizon at its start. */
	private volatile CapturePosition start = CapturePosition.START;

	/**
	 * Tables whose rows were rejected or unknown once, so that the log says so once each.
	 */
	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	private CapturedChangeAttributes attributes = (table, uri, change) -> Map.of();

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
		this.shared = sink.isShared();
	}

	/**
	 * Sets what each captured change carries beside {@code change}; before
	 * {@link #start()}.
	 * @param attributes the attributes of each change
	 */
	public void setAttributes(CapturedChangeAttributes attributes) {
		this.attributes = attributes;
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
			this.database.tableIds(prepared, this.byName.keySet()).forEach((name, id) -> {
				this.names.put(id, name);
				this.byId.put(id, this.byName.get(name));
			});
			// On the first start, the capture begins here: every change committed after
			// the
			// application started is delivered, even one made before the reader's first
			// read.
			this.database.cursor(prepared);
			if (!this.shared) {
				// A node that reads for itself while another stores the position begins
				// here: its subscribers are its own, none of them heard of earlier
				// changes.
				this.start = this.database.horizon(prepared);
			}
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
		Thread thread = McpThreads.thread("mcp-change-capture", this::readLoop);
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
						if (this.shared) {
							reading = null;
						}
						else if (reading != null) {
							// The lease ended with the old connection; the position is
							// this node's.
							// Prune at once, as a new reader would: rows may have aged
							// past the
							// retention while the connection was lost.
							reading.keeper = this.database.tryLease(current);
							reading.nextPrune = System.nanoTime();
						}
					}
					if (reading == null) {
						boolean lease = this.database.tryLease(current);
						if (!lease && this.shared) {
							// Another node reads; this one takes over when its connection
							// ends.
							this.database.awaitChanges(current, this.settings.pollInterval());
							failures = served(failures, false);
							continue;
						}
						Cursor cursor = this.database.cursor(current);
						reading = new Reading(cursor.id(), lease ? cursor.position() : this.start, lease);
						this.stats.position(reading.position);
						logger.debug("The MCP change capture reads from " + reading.position
								+ (lease ? "" : " (another node stores the position)"));
					}
					if (System.nanoTime() - reading.nextPrune >= 0) {
						if (reading.keeper) {
							prune(current, reading);
						}
						else {
							checkPruned(current, reading);
						}
						reading.nextPrune = System.nanoTime() + pruneInterval().toNanos();
					}
					Batch batch = this.database.read(current, reading.position, this.settings.batchSize());
					if (!batch.rows().isEmpty()) {
						publish(current, reading.source, batch.rows());
						if (reading.keeper) {
							this.database.savePosition(current, batch.readUpTo());
						}
					}
					reading.position = reading.position.max(batch.readUpTo());
					this.stats.position(reading.position);
					failures = served(failures, true);
					if (batch.rows().size() < this.settings.batchSize()) {
						if (System.nanoTime() - reading.nextCheck >= 0) {
							check(current, reading);
							reading.nextCheck = System.nanoTime() + this.settings.pollInterval().toNanos();
						}
						this.database.awaitChanges(current, this.settings.pollInterval());
					}
				}
				catch (Throwable ex) {
					// An Error too: the application would otherwise stop hearing of
					// changes for good.
					if (!this.running) {
						return;
					}
					current = close(current);
					this.connection = null;
					if (this.shared) {
						reading = null;
					}
					failures++;
					this.stats.error();
					this.stats.connected(false, false);
					this.stats.held(Duration.ZERO, null);
					long wait = backOffMillis(failures);
					if (failures == 1) {
						logger.warn("The MCP change capture lost its connection to the database or failed to read; "
								+ "retrying, and changes committed meanwhile are read when it is back", ex);
					}
					else {
						// The stack trace was logged at the first failure: one line per
						// attempt now.
						logger.warn("The MCP change capture still fails (attempt " + failures + ", next in " + wait
								+ " ms): " + ex);
					}
					backOff(wait);
				}
			}
		}
		finally {
			close(current);
			this.connection = null;
			this.stats.connected(false, false);
		}
	}

	/**
	 * The connection has served (a read, or a standby's wait, succeeded): the back-off
	 * starts afresh. Not at connecting, which works when reading keeps failing.
	 */
	private long served(long failures, boolean reading) {
		this.stats.connected(true, reading);
		if (failures > 0) {
			logger.info("The MCP change capture reads again after " + failures + " failed attempt(s)");
		}
		return 0;
	}

	/**
	 * Checks, once a poll interval while the capture has caught up, what a read does not
	 * show: changes held back by a transaction left open, a captured table renamed or
	 * dropped, and (reading for itself) whether this node may now store the position.
	 */
	private void check(Connection current, Reading reading) throws SQLException {
		if (!this.shared && !reading.keeper && this.database.tryLease(current)) {
			reading.keeper = true;
			this.database.savePosition(current, reading.position);
		}
		checkTables(current);
		Hold hold = this.database.hold(current, reading.position);
		if (hold == null || hold.waiting().compareTo(this.settings.holdWarningThreshold()) < 0) {
			if (hold == null && reading.warnedHold != null) {
				logger.info("The MCP change capture is no longer held by transaction " + reading.warnedHold);
				reading.warnedHold = null;
			}
			this.stats.held((hold != null) ? hold.waiting() : Duration.ZERO, null);
			return;
		}
		this.stats.held(hold.waiting(), hold);
		if (!Long.valueOf(hold.transaction()).equals(reading.warnedHold)) {
			reading.warnedHold = hold.transaction();
			logger.warn("The MCP change capture is held: captured changes committed up to " + hold.waiting().toSeconds()
					+ " s ago wait for transaction " + hold.transaction() + " to end, " + holder(hold)
					+ ". Every captured change after it waits too (none is lost); end that "
					+ "transaction, or let idle_in_transaction_session_timeout end such sessions. Logged once per "
					+ "transaction; mcp.capture.held shows how long changes wait");
		}
	}

	private static String holder(Hold hold) {
		if (hold.pid() == null) {
			return "which no session visible to the capture's role runs (a prepared transaction, or another role's "
					+ "session: grant the capture's role pg_read_all_stats to see it)";
		}
		return "run by backend pid " + hold.pid() + ", application_name '" + hold.applicationName() + "', state '"
				+ hold.state() + "'" + ((hold.open() != null) ? ", open for " + hold.open().toSeconds() + " s" : "");
	}

	/**
	 * Compares the captured tables' present names with those last seen, by their stable
	 * ids: a table renamed (or moved to another schema) keeps its trigger and goes on
	 * being captured under its new name; a table dropped is gone. Either way changes may
	 * have been missed meanwhile, so the template's subscribers are told to re-read.
	 * @return whether a table was renamed or dropped
	 */
	private boolean checkTables(Connection current) throws SQLException {
		if (this.names.isEmpty()) {
			return false;
		}
		Map<Long, String> present = this.database.tableNames(current, this.names.keySet());
		boolean changed = false;
		for (Map.Entry<Long, String> entry : Map.copyOf(this.names).entrySet()) {
			String now = present.get(entry.getKey());
			if (Objects.equals(now, entry.getValue())) {
				continue;
			}
			changed = true;
			CapturedTable table = this.byId.get(entry.getKey());
			if (now == null) {
				this.names.remove(entry.getKey());
				logger.warn("Captured table " + entry.getValue() + " was dropped while the MCP change capture ran; "
						+ "subscribers of \"" + table.template().getTemplate() + "\" are told to re-read. Remove it "
						+ "from mcp.capture.tables, or create it again and restart the application");
			}
			else {
				this.names.put(entry.getKey(), now);
				Map<String, CapturedTable> known = new HashMap<>(this.byName);
				known.put(now, table);
				this.byName = Map.copyOf(known);
				logger.warn("Captured table " + entry.getValue() + " was renamed to " + now + " while the MCP change "
						+ "capture ran: its changes are captured under the new name until the application restarts, "
						+ "and subscribers of \"" + table.template().getTemplate() + "\" are told to re-read. Name "
						+ now + " in mcp.capture.tables before the next start, which otherwise stops");
			}
			this.stats.tableRenamed();
			this.sink.resync(List.of(table));
		}
		return changed;
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
			if (pruned != null && !this.shared) {
				// For the nodes that read for themselves, which this delete may leave
				// behind.
				this.database.savePruned(current, pruned);
			}
			if (pruned != null && pruned.compareTo(reading.position) > 0) {
				resync(reading, pruned);
				this.database.savePosition(current, pruned);
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

	/**
	 * Whether another node pruned rows this one had not read (it reads for itself and
	 * lagged longer than the retention, or was cut off that long).
	 */
	private void checkPruned(Connection current, Reading reading) throws SQLException {
		CapturePosition pruned = this.database.pruned(current);
		if (pruned != null && pruned.compareTo(reading.position) > 0) {
			resync(reading, pruned);
		}
	}

	private void resync(Reading reading, CapturePosition pruned) {
		logger.warn("Captured changes up to " + pruned + " were pruned (older than mcp.capture.retention="
				+ this.settings.retention() + ") before the MCP change capture read them (it had read up to "
				+ reading.position + "); subscribers of the captured resources are told to re-read");
		this.sink.resync(this.tables);
		this.stats.resynced();
		reading.position = pruned;
	}

	private void publish(Connection current, String source, List<CapturedRow> rows) throws SQLException {
		List<Positioned> changes = new ArrayList<>(rows.size());
		List<Instant> written = new ArrayList<>(rows.size());
		boolean rechecked = false;
		for (CapturedRow row : rows) {
			CapturedTable table = this.byName.get(row.table());
			if (table == null && !rechecked) {
				// Perhaps a captured table renamed since the last check: its trigger
				// fires on.
				rechecked = true;
				if (checkTables(current)) {
					table = this.byName.get(row.table());
				}
			}
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
							// A column of the template changed: the resource moved to
							// another URI.
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
		changes.add(new Positioned(new ResourceChange(uri, attributes(table, uri, change), this.clock.instant()),
				row.position(), part));
		written.add(row.writtenAt());
	}

	private Map<String, Object> attributes(CapturedTable table, String uri, String change) {
		Map<String, Object> extra;
		try {
			extra = this.attributes.attributes(table.name(), uri, change);
		}
		catch (RuntimeException ex) {
			if (this.warned.add("attributes:" + table.name())) {
				logger.warn("The CapturedChangeAttributes bean failed for a change of " + uri
						+ "; the change goes out with its change attribute alone (logged once per table)", ex);
			}
			return Map.of(CHANGE, change);
		}
		if (extra.isEmpty()) {
			return Map.of(CHANGE, change);
		}
		Map<String, Object> merged = new LinkedHashMap<>(extra);
		merged.put(CHANGE, change);
		return merged;
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

	private long backOffMillis(long failures) {
		return Math.min(this.settings.maxBackOff().toMillis(), 100L << Math.min(failures, 10));
	}

	private void backOff(long millis) {
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
	}

	/**
	 * The capture's state while this node reads.
	 */
	private static final class Reading {

		final String source;

		CapturePosition position;

		/** Whether this node holds the lease: it stores the position and prunes. */
		boolean keeper;

		long nextPrune = System.nanoTime();

		long nextCheck = System.nanoTime();

		/** The transaction that holds the capture, once logged. */
		@Nullable Long warnedHold;

		Reading(String source, CapturePosition position, boolean keeper) {
			this.source = source;
			this.position = position;
			this.keeper = keeper;
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
	 * @param holdWarningThreshold how long changes may wait behind a transaction still
	 * open before the capture warns and reports itself down
	 * @since 0.1.0
	 */
	public record Settings(int batchSize, Duration pollInterval, Duration retention, Duration maxBackOff,
			boolean installSchema, Duration holdWarningThreshold) {

		/** The default {@code holdWarningThreshold}. */
		public static final Duration HOLD_WARNING_THRESHOLD = Duration.ofSeconds(10);

		public Settings(int batchSize, Duration pollInterval, Duration retention, Duration maxBackOff,
				boolean installSchema) {
			this(batchSize, pollInterval, retention, maxBackOff, installSchema, HOLD_WARNING_THRESHOLD);
		}

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
			if (holdWarningThreshold.isNegative()) {
				throw new IllegalArgumentException(
						"mcp.capture.hold-warning-threshold must not be negative, was " + holdWarningThreshold);
			}
		}

	}

}
