package io.github.mcpsubscriptions.transport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The MCP endpoint's Origin and Host check ({@link DnsRebindingProtection}) for the
 * application's own endpoints: a page on a rebound domain must not read the Actuator or
 * change data through a REST API on this host any more than it may call {@code /mcp}.
 * Refused requests get 403 with a small JSON body naming the reason.
 *
 * @since 0.1.0
 */
public class DnsRebindingFilter extends OncePerRequestFilter {

	private final DnsRebindingProtection protection;

	private final JsonRpcCodec codec;

	/**
	 * Create the filter.
	 * @param protection the check
	 * @param codec writes the refusal's JSON body
	 */
	public DnsRebindingFilter(DnsRebindingProtection protection, JsonRpcCodec codec) {
		this.protection = protection;
		this.codec = codec;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String refusal = this.protection.refusal(request);
		if (refusal == null) {
			chain.doFilter(request, response);
			return;
		}
		response.setStatus(HttpStatus.FORBIDDEN.value());
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8.name());
		response.getWriter()
			.write(this.codec.writeAsString(Map.of("status", 403, "error", "Forbidden", "message", refusal)));
	}

}
