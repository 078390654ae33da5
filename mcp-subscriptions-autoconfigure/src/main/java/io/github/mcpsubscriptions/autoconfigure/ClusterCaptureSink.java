package io.github.mcpsubscriptions.autoconfigure;

import java.util.List;

import io.github.mcpsubscriptions.capture.CaptureSink;
import io.github.mcpsubscriptions.capture.CapturedTable;
import io.github.mcpsubscriptions.cluster.RedisChangeLog;

/**
 * Captured changes go to the cluster's shared change log, each once whichever node read
 * it, and every node delivers them to its own subscribers.
 */
class ClusterCaptureSink implements CaptureSink {

	private final RedisChangeLog log;

	ClusterCaptureSink(RedisChangeLog log) {
		this.log = log;
	}

	@Override
	public void publish(String source, List<Positioned> changes) {
		this.log.appendOnce(source, changes.stream().map(Positioned::key).toList(),
				changes.stream().map(Positioned::change).toList());
	}

	@Override
	public boolean isShared() {
		return true;
	}

	@Override
	public void resync(List<CapturedTable> tables) {
		this.log.appendResync(tables.stream().map((table) -> table.template().getTemplate()).toList());
	}

}
