package io.github.mcpsubscriptions.cluster;

/**
 * The names of the Redis keys the cluster writes, all under one prefix. Keys that one
 * operation touches together share a hash tag, so that they stay in one slot of a Redis
 * Cluster.
 *
 * @param prefix the prefix of every key
 */
public record ClusterKeys(String prefix) {

	/**
	 * The change log.
	 * @return the key
	 */
	public String log() {
		return this.prefix + "{log}";
	}

}
