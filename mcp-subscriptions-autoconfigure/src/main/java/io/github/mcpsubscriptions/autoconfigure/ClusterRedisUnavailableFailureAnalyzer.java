package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.session.StoreUnavailableException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Reports a clustered node that cannot reach Redis at start-up as a clear failure that
 * names the Redis it tried and how to fix it, rather than as a stack trace.
 */
class ClusterRedisUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<StoreUnavailableException> {

	private final Environment environment;

	ClusterRedisUnavailableFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, StoreUnavailableException cause) {
		String target = this.environment.getProperty("spring.data.redis.url");
		if (target == null) {
			target = this.environment.getProperty("spring.data.redis.host", "localhost") + ":"
					+ this.environment.getProperty("spring.data.redis.port", "6379");
		}
		Throwable reason = cause.getCause();
		while (reason != null && reason.getCause() != null && reason.getCause() != reason) {
			reason = reason.getCause();
		}
		return new FailureAnalysis(
				"MCP clustering is on (mcp.cluster.enabled=true) but Redis at " + target + " cannot be reached: "
						+ ((reason != null) ? reason.getMessage() : cause.getMessage()),
				"Start Redis, or point spring.data.redis.host, spring.data.redis.port (or spring.data.redis.url, "
						+ "sentinel or cluster settings) at it. To run a single node without Redis, set "
						+ "mcp.cluster.enabled=false.",
				cause);
	}

}
