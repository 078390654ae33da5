package io.github.mcpsubscriptions.cluster;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Meters of this node's part of the cluster backplane. Node-local, like every meter: the
 * monitoring system aggregates across nodes.
 *
 * @since 0.1.0
 */
public class ClusterMeterBinder implements MeterBinder {

	private final ClusterStats stats;

	public ClusterMeterBinder(ClusterStats stats) {
		this.stats = stats;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder("mcp.cluster.changes.published", this.stats, ClusterStats::getPublished)
			.description("Changes this node appended to the cluster's change log")
			.register(registry);
		FunctionCounter.builder("mcp.cluster.changes.received", this.stats, ClusterStats::getReceived)
			.description("Changes this node read from the cluster's change log")
			.register(registry);
		FunctionCounter.builder("mcp.cluster.redis.errors", this.stats, ClusterStats::getErrors)
			.description("Redis operations of the cluster backplane that failed")
			.register(registry);
		FunctionCounter.builder("mcp.cluster.log.gaps", this.stats, ClusterStats::getLogGaps)
			.description("Times the change log was trimmed past this node's position before it read on; "
					+ "its subscribers were told to resync")
			.register(registry);
		FunctionCounter.builder("mcp.cluster.redis.restarts", this.stats, ClusterStats::getRedisRestarts)
			.description("Times Redis restarted under this node or lost the change log; its subscribers were told "
					+ "to resync")
			.register(registry);
		FunctionCounter.builder("mcp.cluster.principals.rejected", this.stats, ClusterStats::getRejectedPrincipals)
			.description("Authentications read from the change log that were rejected (a type no authentication "
					+ "consists of, past the bounds, or unreadable); the record's principal name judged instead")
			.register(registry);
		FunctionCounter.builder("mcp.cluster.capture.rewinds", this.stats, ClusterStats::getCaptureRewinds)
			.description("Times a captured database's positions went back behind what was appended (a restore, a "
					+ "failover that lost transactions); its captured templates' subscribers were told to resync")
			.register(registry);
		FunctionCounter
			.builder("mcp.cluster.lag.total", this.stats, (stats) -> stats.getTotalLagNanos() / 1_000_000_000.0)
			.baseUnit("seconds")
			.description("Sum of the lags from publication to receipt; divide by changes received for the mean")
			.register(registry);
		TimeGauge.builder("mcp.cluster.lag", this.stats, TimeUnit.NANOSECONDS, ClusterStats::getLastLagNanos)
			.description("Lag from publication to receipt of the last change received")
			.register(registry);
		Gauge.builder("mcp.cluster.connected", this.stats, (stats) -> stats.isConnected() ? 1 : 0)
			.description("Whether this node reaches the cluster's Redis")
			.register(registry);
	}

}
