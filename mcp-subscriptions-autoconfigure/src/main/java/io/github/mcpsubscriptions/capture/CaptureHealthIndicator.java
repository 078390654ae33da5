package io.github.mcpsubscriptions.capture;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports the change capture down while its connection to the database is lost.
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
		(this.stats.isConnected() ? builder.up() : builder.down()).withDetail("reading", this.stats.isReading())
			.withDetail("position", (position != null) ? position.toString() : "none")
			.withDetail("errors", this.stats.getErrors());
	}

}
