package io.github.mcpsubscriptions.cluster;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports the cluster backplane down while this node cannot reach Redis.
 *
 * @since 0.1.0
 */
public class ClusterHealthIndicator extends AbstractHealthIndicator {

	private final RedisChangeLog log;

	private final ClusterStats stats;

	public ClusterHealthIndicator(RedisChangeLog log, ClusterStats stats) {
		super("MCP cluster health check failed");
		this.log = log;
		this.stats = stats;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		(this.stats.isConnected() ? builder.up() : builder.down()).withDetail("node", this.log.getNodeName())
			.withDetail("logPosition", this.log.getPosition())
			.withDetail("redisErrors", this.stats.getErrors());
	}

}
