package io.github.mcpsubscriptions.cluster;

import java.util.function.Supplier;

import io.github.mcpsubscriptions.session.StoreUnavailableException;

import org.springframework.dao.DataAccessException;

/**
 * Turns Redis failures into {@link StoreUnavailableException}s, which requests answer
 * with 503 and {@code Retry-After}, and counts them.
 */
final class RedisCalls {

	private final ClusterStats stats;

	RedisCalls(ClusterStats stats) {
		this.stats = stats;
	}

	<T> T call(String what, Supplier<T> action) {
		try {
			return action.get();
		}
		catch (DataAccessException ex) {
			this.stats.error();
			throw new StoreUnavailableException("The MCP cluster's Redis cannot be reached (" + what + ")", ex);
		}
	}

	void run(String what, Runnable action) {
		call(what, () -> {
			action.run();
			return null;
		});
	}

}
