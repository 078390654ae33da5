package io.github.mcpsubscriptions.transport;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.cors.CorsConfiguration;

/**
 * Refuses requests a browser could have been tricked into sending: an {@code Origin} that
 * is not allowed, or (the DNS-rebinding attack) a {@code Host} name that does not belong
 * to this server.
 * <p>
 * Origins from the loopback host names are always allowed; more are added as Spring CORS
 * origin patterns ({@code https://*.example.com}, {@code http://localhost:[*]}). Host
 * names: on a loopback connection only loopback names and the configured hosts are
 * accepted; on a network connection the configured hosts, if any are set.
 *
 * @since 0.1.0
 */
public final class DnsRebindingProtection {

	private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

	private final boolean enabled;

	private final CorsConfiguration origins = new CorsConfiguration();

	private final Set<String> allowedHosts;

	/**
	 * Create the check.
	 * @param enabled whether to check at all
	 * @param allowedOrigins origins accepted besides the loopback ones, as CORS origin
	 * patterns
	 * @param allowedHosts host names accepted besides the loopback ones
	 */
	public DnsRebindingProtection(boolean enabled, List<String> allowedOrigins, List<String> allowedHosts) {
		this.enabled = enabled;
		List<String> patterns = new ArrayList<>();
		for (String host : List.of("localhost", "127.0.0.1", "[::1]")) {
			for (String scheme : List.of("http", "https")) {
				patterns.add(scheme + "://" + host);
				patterns.add(scheme + "://" + host + ":[*]");
			}
		}
		patterns.addAll(allowedOrigins);
		this.origins.setAllowedOriginPatterns(patterns);
		this.allowedHosts = Set.copyOf(allowedHosts.stream().map((host) -> host.toLowerCase(Locale.ROOT)).toList());
	}

	/**
	 * Check a request.
	 * @param request the request
	 * @throws McpHttpException with 403 when it is refused
	 */
	void check(HttpServletRequest request) {
		String refusal = refusal(request);
		if (refusal != null) {
			throw forbidden(refusal);
		}
	}

	/**
	 * Why a request is refused, if it is.
	 * @param request the request
	 * @return the reason, or {@code null} when the request is accepted
	 */
	public @Nullable String refusal(HttpServletRequest request) {
		if (!this.enabled) {
			return null;
		}
		String origin = request.getHeader(HttpHeaders.ORIGIN);
		if (origin != null && this.origins.checkOrigin(origin) == null) {
			return "Origin not allowed: " + origin;
		}
		String host = hostName(request);
		if (host == null) {
			return "Missing Host header";
		}
		if (LOOPBACK_HOSTS.contains(host) || this.allowedHosts.contains(host)) {
			return null;
		}
		if (this.allowedHosts.isEmpty() && !isLoopback(request.getLocalAddr())) {
			return null;
		}
		return "Host not allowed: " + host;
	}

	private static McpHttpException forbidden(String message) {
		return new McpHttpException(HttpStatus.FORBIDDEN, JsonRpcErrorCodes.SERVER_ERROR, "Forbidden: " + message);
	}

	private static @Nullable String hostName(HttpServletRequest request) {
		String header = request.getHeader(HttpHeaders.HOST);
		if (header == null && request.getProtocol().startsWith("HTTP/2")) {
			// HTTP/2 names the host in its :authority pseudo-header, which containers
			// expose as the server name, not as a Host header. An HTTP/1.1 request
			// without a Host header is still refused: there the server name would be
			// the container's own.
			String authority = request.getServerName();
			return (authority.indexOf(':') >= 0 && !authority.startsWith("["))
					? "[" + authority.toLowerCase(Locale.ROOT) + "]" : hostName(authority);
		}
		return hostName(header);
	}

	static @Nullable String hostName(@Nullable String hostHeader) {
		if (hostHeader == null || hostHeader.isBlank()) {
			return null;
		}
		String host = hostHeader.trim().toLowerCase(Locale.ROOT);
		if (host.startsWith("[")) {
			int end = host.indexOf(']');
			return (end > 0) ? host.substring(0, end + 1) : host;
		}
		int colon = host.indexOf(':');
		return (colon >= 0) ? host.substring(0, colon) : host;
	}

	private static boolean isLoopback(@Nullable String address) {
		if (address == null) {
			return false;
		}
		try {
			// A literal address: no name resolution happens.
			return InetAddress.getByName(address).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

}
