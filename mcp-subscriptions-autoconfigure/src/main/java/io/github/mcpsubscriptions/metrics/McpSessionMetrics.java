package io.github.mcpsubscriptions.metrics;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;

import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.SessionEndReason;
import io.github.mcpsubscriptions.session.SessionListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * {@code mcp.server.session.duration}, as OpenTelemetry's semantic conventions for MCP
 * name it: a timer of how long 2025-era sessions lasted, from {@code initialize} to their
 * end (deleted, expired, ended by an operator or limit), tagged
 * {@code mcp.protocol.version}, {@code network.transport} and
 * {@code network.protocol.name}, and, beyond the conventions, {@code reason}. The 2026
 * era has no sessions.
 *
 * @since 0.1.0
 */
public class McpSessionMetrics implements SessionListener, MeterBinder {

	/** The name of the timer. */
	public static final String SESSION_DURATION = "mcp.server.session.duration";

	private final Clock clock;

	private volatile @Nullable MeterRegistry registry;

	/**
	 * Create the meters' binder.
	 * @param clock the sessions' clock
	 */
	public McpSessionMetrics(Clock clock) {
		this.clock = clock;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void sessionEnded(McpSession session, SessionEndReason reason) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		Duration lasted = Duration.between(session.getCreatedAt(), this.clock.instant());
		Timer.builder(SESSION_DURATION)
			.description("How long MCP sessions lasted, as observed on the server")
			.tag("mcp.protocol.version", session.getProtocolVersion())
			.tag("network.transport", "tcp")
			.tag("network.protocol.name", "http")
			.tag("reason", reason.name().toLowerCase(Locale.ROOT))
			.serviceLevelObjectives(McpOperationMetrics.BOUNDARIES)
			.register(registry)
			.record(lasted.isNegative() ? Duration.ZERO : lasted);
	}

}
