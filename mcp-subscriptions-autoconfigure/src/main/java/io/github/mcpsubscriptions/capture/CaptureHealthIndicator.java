package io.github.mcpsubscriptions.capture;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports the change capture down while its connection to the database is lost, or while
 * it is held: captured changes of ended transactions have waited longer than
 * {@code mcp.capture.hold-warning-threshold} behind a transaction still open (details
 * name the session that runs it, as far as the capture's role can see it).
 *
 * @since 0.1.0
 */
public class CaptureHealthIndicator extends AbstractHealthIndicator {

	private final CaptureStats stats;

	public CaptureHealthIndicator(CaptureStats stats) {
		super("MCP change capture health check failed");
		this.stats = stats;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		CapturePosition position = this.stats.getPosition();
		CaptureDatabase.Hold hold = this.stats.getHold();
		boolean connected = this.stats.isConnected();
		((connected && hold == null) ? builder.up() : builder.down()).withDetail("reading", this.stats.isReading())
			.withDetail("position", (position != null) ? position.toString() : "none")
			.withDetail("errors", this.stats.getErrors());
		if (connected && hold != null) {
			Map<String, Object> holder = new LinkedHashMap<>();
			holder.put("transaction", hold.transaction());
			if (hold.pid() != null) {
				holder.put("pid", hold.pid());
				putIfSeen(holder, "applicationName", hold.applicationName());
				putIfSeen(holder, "state", hold.state());
				putIfSeen(holder, "open", (hold.open() != null) ? hold.open().toString() : null);
			}
			else {
				holder.put("pid", "not visible to the capture's role (grant it pg_read_all_stats)");
			}
			builder.withDetail("held", true)
				.withDetail("waiting", hold.waiting().toString())
				.withDetail("holder", holder);
		}
	}

	private static void putIfSeen(Map<String, Object> details, String name, @Nullable Object value) {
		if (value != null) {
			details.put(name, value);
		}
	}

}
