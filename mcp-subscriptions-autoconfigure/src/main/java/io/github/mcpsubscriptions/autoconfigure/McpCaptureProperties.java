package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the change capture: committed row changes read from the
 * database.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("mcp.capture")
public class McpCaptureProperties {

	/**
	 * Whether committed row changes of the captured tables are read from the database
	 * (PostgreSQL) and notify subscribers, whoever wrote them.
	 */
	private boolean enabled;

	/**
	 * Captured tables (optionally schema-qualified) and the URI template of each, such as
	 * product=catalog://products/{id}; template variables name columns of the table.
	 */
	private Map<String, String> tables = new LinkedHashMap<>();

	/**
	 * Whether the change table, the trigger function and the triggers are created (or
	 * brought up to date) at start-up; otherwise they must have been installed before.
	 */
	private boolean installSchema = true;

	/**
	 * Name of the change table the triggers fill, optionally schema-qualified; its cursor
	 * table gets the same name with "_cursor" appended.
	 */
	private String tableName = "mcp_change";

	/**
	 * How long captured rows are kept; older ones are pruned, and a capture that finds
	 * unread rows pruned tells the subscribers of the captured resources to resync.
	 */
	private Duration retention = Duration.ofHours(24);

	/**
	 * How often the capture looks for changes when no notification wakes it.
	 */
	private Duration pollInterval = Duration.ofSeconds(1);

	/**
	 * How many captured rows one read takes at most.
	 */
	private int batchSize = 500;

	/**
	 * Longest wait between two attempts to reconnect after the capture's connection is
	 * lost.
	 */
	private Duration maxBackOff = Duration.ofSeconds(5);

	/**
	 * How long captured changes may wait behind a transaction still open before the
	 * capture logs a warning naming it and reports its health down.
	 */
	private Duration holdWarningThreshold = Duration.ofSeconds(10);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Map<String, String> getTables() {
		return this.tables;
	}

	public void setTables(Map<String, String> tables) {
		this.tables = tables;
	}

	public boolean isInstallSchema() {
		return this.installSchema;
	}

	public void setInstallSchema(boolean installSchema) {
		this.installSchema = installSchema;
	}

	public String getTableName() {
		return this.tableName;
	}

	public void setTableName(String tableName) {
		this.tableName = tableName;
	}

	public Duration getRetention() {
		return this.retention;
	}

	public void setRetention(Duration retention) {
		this.retention = retention;
	}

	public Duration getPollInterval() {
		return this.pollInterval;
	}

	public void setPollInterval(Duration pollInterval) {
		this.pollInterval = pollInterval;
	}

	public int getBatchSize() {
		return this.batchSize;
	}

	public void setBatchSize(int batchSize) {
		this.batchSize = batchSize;
	}

	public Duration getMaxBackOff() {
		return this.maxBackOff;
	}

	public void setMaxBackOff(Duration maxBackOff) {
		this.maxBackOff = maxBackOff;
	}

	public Duration getHoldWarningThreshold() {
		return this.holdWarningThreshold;
	}

	public void setHoldWarningThreshold(Duration holdWarningThreshold) {
		this.holdWarningThreshold = holdWarningThreshold;
	}

}
