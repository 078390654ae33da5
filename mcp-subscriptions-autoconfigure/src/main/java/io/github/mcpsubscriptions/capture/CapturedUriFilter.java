package io.github.mcpsubscriptions.capture;

import java.util.List;

import io.github.mcpsubscriptions.notification.PublishedChangeFilter;
import io.github.mcpsubscriptions.notification.ResourceChange;

/**
 * Declines the application's own changes of captured resources: the capture publishes
 * every committed change of a captured table, so an event (or a mapped entity's change)
 * for the same URI would notify the same commit twice.
 *
 * @since 0.1.0
 */
public class CapturedUriFilter implements PublishedChangeFilter {

	private final List<CapturedTable> tables;

	private final CaptureStats stats;

	public CapturedUriFilter(List<CapturedTable> tables, CaptureStats stats) {
		this.tables = List.copyOf(tables);
		this.stats = stats;
	}

	@Override
	public boolean accept(ResourceChange change) {
		for (CapturedTable table : this.tables) {
			if (table.names(change.uri())) {
				this.stats.skippedEvent();
				return false;
			}
		}
		return true;
	}

}
