package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the MCP endpoint with Spring Security.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("mcp.security")
public class McpSecurityProperties {

	/**
	 * Whether the resources' rules (@PreAuthorize on @McpResource methods) decide reads,
	 * listings, subscriptions and deliveries when Spring Security is on the class path.
	 */
	private boolean enabled = true;

	private final DecisionCache decisionCache = new DecisionCache();

	private final OAuth2 oauth2 = new OAuth2();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public DecisionCache getDecisionCache() {
		return this.decisionCache;
	}

	public OAuth2 getOauth2() {
		return this.oauth2;
	}

	/**
	 * The {@code mcp.security.decision-cache.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class DecisionCache {

		/**
		 * How long an access decision at delivery is kept per authentication, rule and
		 * URI variables; zero to evaluate the rule for every notification.
		 */
		private Duration ttl = Duration.ofSeconds(10);

		/**
		 * How many access decisions are kept at most.
		 */
		private int maxSize = 10_000;

		public Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(Duration ttl) {
			this.ttl = ttl;
		}

		public int getMaxSize() {
			return this.maxSize;
		}

		public void setMaxSize(int maxSize) {
			this.maxSize = maxSize;
		}

	}

	/**
	 * The {@code mcp.security.oauth2.*} properties.
	 *
	 * @since 0.1.0
	 */
	public static class OAuth2 {

		/**
		 * The resource URI of the MCP endpoint, such as https://mcp.example.com/mcp: the
		 * audience access tokens must carry and the "resource" of the metadata document.
		 */
		private @Nullable String resource;

		/**
		 * The issuers of the authorization servers that clients may get tokens from.
		 */
		private List<String> authorizationServers = new ArrayList<>();

		/**
		 * The scopes the resource understands: listed in the metadata document, and the
		 * order 401 and insufficient_scope challenges name and prefer the needed scopes
		 * in.
		 */
		private List<String> scopes = new ArrayList<>();

		/**
		 * A human-readable name of the resource, for the metadata document.
		 */
		private @Nullable String resourceName;

		public @Nullable String getResource() {
			return this.resource;
		}

		public void setResource(@Nullable String resource) {
			this.resource = resource;
		}

		public List<String> getAuthorizationServers() {
			return this.authorizationServers;
		}

		public void setAuthorizationServers(List<String> authorizationServers) {
			this.authorizationServers = authorizationServers;
		}

		public List<String> getScopes() {
			return this.scopes;
		}

		public void setScopes(List<String> scopes) {
			this.scopes = scopes;
		}

		public @Nullable String getResourceName() {
			return this.resourceName;
		}

		public void setResourceName(@Nullable String resourceName) {
			this.resourceName = resourceName;
		}

	}

}
