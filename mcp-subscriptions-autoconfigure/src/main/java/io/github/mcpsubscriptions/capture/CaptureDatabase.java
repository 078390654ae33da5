package io.github.mcpsubscriptions.capture;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

/**
 * What a database does for the change capture: keep a record of committed row changes
 * (installed here), hand it out in commit-safe order after a position, keep the reader's
 * position, and wake the reader. Every method runs on the capture's own connection, on
 * the capture's thread; none is called by an application thread.
 * <p>
 * PostgreSQL's is {@code PostgresCaptureDatabase}, in the package
 * {@code capture.postgres}. Another database implements the same: a trigger-filled table
 * and a cursor table, a read that returns only rows of finished transactions, and a lease
 * so that one reader at a time reads; a database without notifications waits by polling.
 *
 * @since 0.1.0
 */
public interface CaptureDatabase {

	/**
	 * The driver properties that name the capture's connections (PostgreSQL's
	 * {@code ApplicationName}), so that an operator can find and end them.
	 * @param applicationName the name
	 * @return the properties to add to the user and password
	 */
	Properties connectionProperties(String applicationName);

	/**
	 * Checks that the connection reaches a database of this kind and that every table and
	 * template variable exists there.
	 * @param connection the capture's connection
	 * @param tables the captured tables
	 * @return what is wrong, one sentence each; empty if nothing
	 * @throws SQLException if the database cannot be asked
	 */
	List<String> check(Connection connection, List<CapturedTable> tables) throws SQLException;

	/**
	 * The database's own, schema-qualified names of the tables, as recorded rows name
	 * them.
	 * @param connection the capture's connection
	 * @param tables the captured tables, checked
	 * @return the tables by their qualified names
	 * @throws SQLException if the database cannot be asked
	 */
	Map<String, CapturedTable> qualifiedNames(Connection connection, List<CapturedTable> tables) throws SQLException;

	/**
	 * Creates (or brings up to date) the change table, the cursor table and the triggers,
	 * idempotently.
	 * @param connection the capture's connection
	 * @param tables the captured tables, checked
	 * @throws SQLException if it cannot
	 */
	void install(Connection connection, List<CapturedTable> tables) throws SQLException;

	/**
	 * Prepares a new connection for reading (PostgreSQL: {@code LISTEN}).
	 * @param connection the capture's new connection
	 * @throws SQLException if it cannot
	 */
	void open(Connection connection) throws SQLException;

	/**
	 * Takes the reader's lease if no other connection holds it; it is held for as long as
	 * the connection lives.
	 * @param connection the capture's connection
	 * @return whether this connection holds the lease
	 * @throws SQLException if the database cannot be asked
	 */
	boolean tryLease(Connection connection) throws SQLException;

	/**
	 * The reader's stored cursor, created at the present end of the record on the first
	 * start.
	 * @param connection the capture's connection, holding the lease
	 * @return the cursor
	 * @throws SQLException if it cannot be read
	 */
	Cursor cursor(Connection connection) throws SQLException;

	/**
	 * Stores the reader's position.
	 * @param connection the capture's connection, holding the lease
	 * @param position the new position
	 * @throws SQLException if it cannot be stored
	 */
	void savePosition(Connection connection, CapturePosition position) throws SQLException;

	/**
	 * Reads recorded changes after a position, of finished transactions only, in order.
	 * @param connection the capture's connection, holding the lease
	 * @param after the position read up to
	 * @param limit the most rows to return
	 * @return the rows and the position read up to
	 * @throws SQLException if it cannot be read
	 */
	Batch read(Connection connection, CapturePosition after, int limit) throws SQLException;

	/**
	 * Deletes recorded changes older than the retention, of finished transactions only,
	 * in the connection's current transaction (the caller commits).
	 * @param connection the capture's connection, holding the lease, not in auto-commit
	 * @param retention how long rows are kept, by the database's clock
	 * @return the position of the last row deleted, or {@code null} if none was
	 * @throws SQLException if it cannot
	 */
	@Nullable CapturePosition prune(Connection connection, Duration retention) throws SQLException;

	/**
	 * Records, in the connection's current transaction, that rows up to a position were
	 * pruned, for the nodes that read for themselves and may not have read them. By
	 * default nothing is recorded.
	 * @param connection the capture's connection, holding the lease, not in auto-commit
	 * @param pruned the position of the last row deleted
	 * @throws SQLException if it cannot
	 */
	default void savePruned(Connection connection, CapturePosition pruned) throws SQLException {
	}

	/**
	 * The position up to which rows were pruned, as {@link #savePruned} recorded it.
	 * @param connection the capture's connection
	 * @return the position, or {@code null} if none was recorded
	 * @throws SQLException if it cannot be read
	 */
	default @Nullable CapturePosition pruned(Connection connection) throws SQLException {
		return null;
	}

	/**
	 * Waits until a change may have been recorded, or at most a timeout.
	 * @param connection the capture's connection
	 * @param timeout the longest wait
	 * @throws SQLException if the connection fails
	 */
	void awaitChanges(Connection connection, Duration timeout) throws SQLException;

	/**
	 * The present horizon: a position before every change of a transaction that has not
	 * ended, where a node that reads for itself begins. By default the stored cursor's.
	 * @param connection the capture's connection
	 * @return the position
	 * @throws SQLException if the database cannot be asked
	 */
	default CapturePosition horizon(Connection connection) throws SQLException {
		return cursor(connection).position();
	}

	/**
	 * Whether recorded changes of ended transactions wait after a position because a
	 * transaction that has not ended holds the horizon back, and which. By default never.
	 * @param connection the capture's connection
	 * @param after the position read up to
	 * @return the hold, or {@code null} if no ended change waits
	 * @throws SQLException if the database cannot be asked
	 */
	default @Nullable Hold hold(Connection connection, CapturePosition after) throws SQLException {
		return null;
	}

	/**
	 * The database's stable ids of tables (PostgreSQL: their oids), that survive a
	 * rename. By default none, and a renamed table goes unnoticed.
	 * @param connection the capture's connection
	 * @param qualifiedNames the tables' qualified names, as {@link #qualifiedNames} gave
	 * @return the ids by qualified name, of the tables that exist
	 * @throws SQLException if the database cannot be asked
	 */
	default Map<String, Long> tableIds(Connection connection, Collection<String> qualifiedNames) throws SQLException {
		return Map.of();
	}

	/**
	 * The present qualified names of tables, by their ids.
	 * @param connection the capture's connection
	 * @param ids the tables' ids, as {@link #tableIds} gave
	 * @return the names by id, of the tables that still exist
	 * @throws SQLException if the database cannot be asked
	 */
	default Map<Long, String> tableNames(Connection connection, Collection<Long> ids) throws SQLException {
		return Map.of();
	}

	/**
	 * Recorded changes of ended transactions that wait behind a transaction still open.
	 *
	 * @param waiting how long the oldest of them has waited since it was written
	 * @param transaction the id of the transaction that holds the horizon
	 * @param pid the process id of the session that runs it, {@code null} if the
	 * capture's role cannot see it (or a prepared transaction holds it)
	 * @param applicationName the session's {@code application_name}, if seen
	 * @param state the session's state (such as {@code idle in transaction}), if seen
	 * @param open how long its transaction has been open, if seen
	 */
	record Hold(Duration waiting, long transaction, @Nullable Integer pid, @Nullable String applicationName,
			@Nullable String state, @Nullable Duration open) {
	}

	/**
	 * The reader's stored cursor.
	 *
	 * @param id a random id made when the cursor was created, that names this record of
	 * changes (a new database, or a new change table, has a new one)
	 * @param position the position read up to
	 */
	record Cursor(String id, CapturePosition position) {
	}

	/**
	 * Rows read, and the position up to which everything is read.
	 *
	 * @param rows the rows, in order
	 * @param readUpTo the position after them: the last row's when the read was cut at
	 * its limit, else the present end of the finished transactions
	 */
	record Batch(List<CapturedRow> rows, CapturePosition readUpTo) {
	}

}
