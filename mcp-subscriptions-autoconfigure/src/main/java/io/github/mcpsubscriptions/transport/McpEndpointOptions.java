package io.github.mcpsubscriptions.transport;

import java.time.Duration;
import java.util.List;

/**
 * The settings of {@link McpEndpoint}.
 *
 * @param maxRequestSize the largest request body accepted, in bytes
 * @param dnsRebindingProtection whether {@code Origin} and {@code Host} are checked
 * @param allowedOrigins origin patterns accepted besides the loopback ones
 * @param allowedHosts host names accepted besides the loopback ones
 * @param heartbeatInterval the most time an open stream goes without a write before it
 * gets a heartbeat comment; zero for none
 * @since 0.1.0
 */
public record McpEndpointOptions(long maxRequestSize, boolean dnsRebindingProtection, List<String> allowedOrigins,
		List<String> allowedHosts, Duration heartbeatInterval) {

	/**
	 * The longest heartbeat interval accepted: the MCP Events extension (SEP-3415) asks
	 * for heartbeats at most 30 s apart, and proxies commonly end connections idle for 60
	 * s.
	 */
	public static final Duration MAX_HEARTBEAT_INTERVAL = Duration.ofSeconds(30);

	public McpEndpointOptions {
		if (heartbeatInterval.isNegative() || heartbeatInterval.compareTo(MAX_HEARTBEAT_INTERVAL) > 0) {
			throw new IllegalArgumentException("mcp.endpoint.heartbeat-interval must be between 0 (no heartbeats) and "
					+ MAX_HEARTBEAT_INTERVAL.toSeconds() + "s, was " + heartbeatInterval);
		}
	}

}
