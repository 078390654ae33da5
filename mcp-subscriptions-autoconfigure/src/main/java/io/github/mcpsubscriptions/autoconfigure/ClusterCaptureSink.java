package io.github.mcpsubscriptions.autoconfigure;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import io.github.mcpsubscriptions.capture.CaptureConnections;
import io.github.mcpsubscriptions.capture.CaptureDatabase;
import io.github.mcpsubscriptions.capture.CapturePosition;
import io.github.mcpsubscriptions.capture.CaptureSink;
import io.github.mcpsubscriptions.capture.CapturedTable;
import io.github.mcpsubscriptions.cluster.RedisChangeLog;

/**
 * Captured changes go to the cluster's shared change log, each once whichever node read
 * it, and every node delivers them to its own subscribers. A batch that starts at or
 * below what the log took from the database is read again, unless the database has not
 * reached that position: then it went back in time (a restore, a failover that lost
 * transactions), and the log resyncs the captured templates' subscribers and takes its
 * changes from there.
 */
class ClusterCaptureSink implements CaptureSink {

	private final RedisChangeLog log;

	private final List<String> templates;

	private final CaptureDatabase database;

	private final CaptureConnections connections;

	ClusterCaptureSink(RedisChangeLog log, List<CapturedTable> tables, CaptureDatabase database,
			CaptureConnections connections) {
		this.log = log;
		this.templates = tables.stream().map((table) -> table.template().getTemplate()).toList();
		this.database = database;
		this.connections = connections;
	}

	@Override
	public void publish(String source, List<Positioned> changes) {
		this.log.appendOnce(source, changes.stream().map(Positioned::key).toList(),
				changes.stream().map(Positioned::change).toList(), this.templates, this::notReached);
	}

	@Override
	public boolean isShared() {
		return true;
	}

	@Override
	public void resync(List<CapturedTable> tables) {
		this.log.appendResync(tables.stream().map((table) -> table.template().getTemplate()).toList());
	}

	/**
	 * Whether the database has not reached a change's key: no finished transaction after
	 * it and its horizon not past it. A database that appended the change has (the
	 * horizon never goes back), so a batch read again after a hand-over is not taken for
	 * a database gone back. Asked only of a batch that starts at or below the mark.
	 */
	private boolean notReached(String key) {
		String[] parts = key.split(":");
		CapturePosition position;
		try {
			position = new CapturePosition(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
		}
		catch (RuntimeException ex) {
			// Not a key of this capture: nothing to say it went back.
			return false;
		}
		try (Connection connection = this.connections.open()) {
			return this.database.read(connection, position, 1).readUpTo().compareTo(position) <= 0;
		}
		catch (SQLException ex) {
			// Nothing was appended: the capture reads the batch again when it reconnects.
			throw new IllegalStateException("The MCP change capture could not ask the database where it stands", ex);
		}
	}

}
