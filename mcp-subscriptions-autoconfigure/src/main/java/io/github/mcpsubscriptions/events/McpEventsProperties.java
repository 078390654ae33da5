package io.github.mcpsubscriptions.events;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the MCP Events extension ({@code mcp.events.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("mcp.events")
public class McpEventsProperties {

	/**
	 * Whether the Events extension (draft SEP-3415, poll delivery only so far) is offered
	 * to 2026-07-28 clients; off by default while the extension is partial.
	 */
	private boolean enabled;

	/**
	 * How many recorded events the event log (in memory, or the cluster's in Redis)
	 * retains at most: the replay window of a cursor.
	 */
	private int retentionSize = 10_000;

	/**
	 * How long the event log (in memory, or the cluster's in Redis) retains an event at
	 * most.
	 */
	private Duration retentionAge = Duration.ofHours(1);

	/**
	 * The delay before the next poll that events/poll results recommend (nextPollMs).
	 */
	private Duration pollInterval = Duration.ofSeconds(5);

	/**
	 * How many events one events/poll returns at most, and when the client names no
	 * maxEvents; a larger maxEvents is clamped to it.
	 */
	private int maxEventsPerPoll = 100;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getRetentionSize() {
		return this.retentionSize;
	}

	public void setRetentionSize(int retentionSize) {
		this.retentionSize = retentionSize;
	}

	public Duration getRetentionAge() {
		return this.retentionAge;
	}

	public void setRetentionAge(Duration retentionAge) {
		this.retentionAge = retentionAge;
	}

	public Duration getPollInterval() {
		return this.pollInterval;
	}

	public void setPollInterval(Duration pollInterval) {
		this.pollInterval = pollInterval;
	}

	public int getMaxEventsPerPoll() {
		return this.maxEventsPerPoll;
	}

	public void setMaxEventsPerPoll(int maxEventsPerPoll) {
		this.maxEventsPerPoll = maxEventsPerPoll;
	}

}
