package io.github.mcpsubscriptions.capture;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Meters of the change capture.
 *
 * @since 0.1.0
 */
public class CaptureMeterBinder implements MeterBinder {

	private final CaptureStats stats;

	public CaptureMeterBinder(CaptureStats stats) {
		this.stats = stats;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder("mcp.capture.changes", this.stats, CaptureStats::getChanges)
			.description("Captured row changes published as resource changes")
			.register(registry);
		FunctionCounter.builder("mcp.capture.rejected", this.stats, CaptureStats::getRejected)
			.description("Captured rows skipped because their URI could not be built or their key could not be read")
			.register(registry);
		FunctionCounter.builder("mcp.capture.events.skipped", this.stats, CaptureStats::getSkippedEvents)
			.description("Changes the application published for captured resources, not published again")
			.register(registry);
		FunctionCounter.builder("mcp.capture.resyncs", this.stats, CaptureStats::getResyncs)
			.description("Times unread captured changes were pruned and subscribers were told to resync")
			.register(registry);
		FunctionCounter.builder("mcp.capture.errors", this.stats, CaptureStats::getErrors)
			.description("Failures of the capture's connection or reads")
			.register(registry);
		Gauge.builder("mcp.capture.connected", this.stats, (stats) -> stats.isConnected() ? 1 : 0)
			.description("Whether the capture's connection to the database works")
			.register(registry);
		FunctionCounter.builder("mcp.capture.tables.renamed", this.stats, CaptureStats::getTablesRenamed)
			.description("Captured tables found renamed, moved to another schema or dropped while the capture ran")
			.register(registry);
		Gauge.builder("mcp.capture.held", this.stats, (stats) -> stats.getWaiting().toNanos() / 1e9)
			.description("How long captured changes of ended transactions have waited behind a transaction still open")
			.baseUnit("seconds")
			.register(registry);
		Timer lag = Timer.builder("mcp.capture.lag")
			.description("Time from a captured row's write to its publication")
			.publishPercentileHistogram()
			.register(registry);
		this.stats.addLagRecorder(lag::record);
	}

}
