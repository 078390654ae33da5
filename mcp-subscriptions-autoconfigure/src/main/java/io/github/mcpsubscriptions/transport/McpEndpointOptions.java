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
 * @param probeInterval how often idle streams are probed for clients that went away; zero
 * for never
 * @since 0.1.0
 */
public record McpEndpointOptions(long maxRequestSize, boolean dnsRebindingProtection, List<String> allowedOrigins,
		List<String> allowedHosts, Duration probeInterval) {

}
