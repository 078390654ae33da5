package io.github.mcpsubscriptions.security;

import java.net.URI;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * What the MCP server says about itself as an OAuth 2.1 protected resource (RFC 9728),
 * and the audience its tokens must carry (RFC 8707).
 *
 * @param resource the resource URI, such as {@code https://mcp.example.com/mcp}
 * @param authorizationServers the issuers of the authorization servers clients may use
 * @param scopes the scopes the resource understands (its {@code scopes_supported}); an
 * {@code insufficient_scope} error names those a request needed in this order
 * @param resourceName a human-readable name, or {@code null}
 * @since 0.1.0
 */
public record McpProtectedResource(String resource, List<String> authorizationServers, List<String> scopes,
		@Nullable String resourceName) {

	private static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

	public McpProtectedResource {
		if (!StringUtils.hasText(resource)) {
			throw new IllegalArgumentException("The MCP resource URI (mcp.security.oauth2.resource) must be set for an "
					+ "OAuth-protected MCP endpoint, e.g. https://mcp.example.com/mcp");
		}
		URI uri = URI.create(resource);
		if (!uri.isAbsolute() || uri.getFragment() != null) {
			throw new IllegalArgumentException("The MCP resource URI (mcp.security.oauth2.resource) must be an "
					+ "absolute URI without a fragment, was '" + resource + "'");
		}
		authorizationServers = List.copyOf(authorizationServers);
		scopes = List.copyOf(scopes);
	}

	/**
	 * Where the metadata document is (RFC 9728 §3.1): the well-known path inserted
	 * between the host and the resource's path.
	 * @return the metadata URL
	 */
	public String metadataUrl() {
		URI uri = URI.create(this.resource);
		String path = (uri.getRawPath() != null && !uri.getRawPath().equals("/")) ? uri.getRawPath() : "";
		return uri.getScheme() + "://" + uri.getRawAuthority() + WELL_KNOWN + path;
	}

}
