package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for a cluster of MCP endpoints sharing state through Redis.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("mcp.cluster")
public class McpClusterProperties {

	/**
	 * Whether nodes share sessions, subscriptions and changes through Redis (needs Spring
	 * Data Redis). Never on merely because Redis is on the class path.
	 */
	private boolean enabled;

	/**
	 * Prefix of every Redis key the cluster writes; nodes of one cluster share it.
	 */
	private String keyPrefix = "mcp:";

	/**
	 * How many entries the shared change log keeps: the replay window for resuming on any
	 * node.
	 */
	private int logSize = 10000;

	/**
	 * How long one read of the change log waits for new entries.
	 */
	private Duration pollTimeout = Duration.ofSeconds(1);

	/**
	 * This node's name in reports; defaults to a random one.
	 */
	private @Nullable String nodeName;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public int getLogSize() {
		return this.logSize;
	}

	public void setLogSize(int logSize) {
		this.logSize = logSize;
	}

	public Duration getPollTimeout() {
		return this.pollTimeout;
	}

	public void setPollTimeout(Duration pollTimeout) {
		this.pollTimeout = pollTimeout;
	}

	public @Nullable String getNodeName() {
		return this.nodeName;
	}

	public void setNodeName(@Nullable String nodeName) {
		this.nodeName = nodeName;
	}

}
