package io.github.mcpsubscriptions.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the MCP server's Actuator endpoint and health indicator.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("mcp.management")
public class McpManagementProperties {

	/**
	 * Whether the 'mcpsubscriptions' Actuator endpoint may close sessions.
	 */
	private boolean allowSessionClose;

	/**
	 * How many of the most subscribed URIs the Actuator endpoint lists.
	 */
	private int topUris = 10;

	/**
	 * Dispatch backlog above which the health indicator reports down.
	 */
	private int healthMaxBacklog = 10_000;

	public boolean isAllowSessionClose() {
		return this.allowSessionClose;
	}

	public void setAllowSessionClose(boolean allowSessionClose) {
		this.allowSessionClose = allowSessionClose;
	}

	public int getTopUris() {
		return this.topUris;
	}

	public void setTopUris(int topUris) {
		this.topUris = topUris;
	}

	public int getHealthMaxBacklog() {
		return this.healthMaxBacklog;
	}

	public void setHealthMaxBacklog(int healthMaxBacklog) {
		this.healthMaxBacklog = healthMaxBacklog;
	}

}
