package io.github.mcpsubscriptions.sample.security;

import java.util.List;

import io.github.mcpsubscriptions.security.McpProtectedResource;
import io.github.mcpsubscriptions.security.McpResourceServerConfigurer;

import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientCredentialsAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Profile {@code secure}: the MCP endpoint and the REST API as an OAuth 2.1 resource
 * server, and an authorization server in the same process that issues JWTs to the clients
 * of {@code application-secure.properties} by the {@code client_credentials} grant.
 * Clients find it as MCP clients do: the 401's {@code resource_metadata} link, its
 * {@code authorization_servers}, that server's
 * {@code /.well-known/oauth-authorization-server}.
 * <p>
 * The Actuator is the operator's: who follows which resource, the server's paths, the
 * meters. Only a token with scope {@code actuator:read} (client {@code mcp-operator})
 * reads it; an MCP client's token gets 403, and health answers everyone with its status
 * alone (the details are the operator's too, {@code management.endpoint.health.roles}).
 */
@Configuration(proxyBeanMethods = false)
@Profile("secure")
class SecureConfiguration {

	@Bean
	@Order(1)
	SecurityFilterChain authorizationServerSecurity(HttpSecurity http) {
		return http.oauth2AuthorizationServer((server) -> http.securityMatcher(server.getEndpointsMatcher()))
			.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
			.build();
	}

	@Bean
	@Order(2)
	SecurityFilterChain resourceServerSecurity(HttpSecurity http) {
		return http
			.authorizeHttpRequests((requests) -> requests.requestMatchers(EndpointRequest.to("health"))
				.permitAll()
				.requestMatchers(EndpointRequest.toAnyEndpoint())
				.hasAuthority("SCOPE_actuator:read")
				// The live page itself holds no data: it asks for a token and sends it
				// with
				// every request it makes.
				.requestMatchers(HttpMethod.GET, "/", "/index.html", "/live/*")
				.permitAll()
				.requestMatchers(HttpMethod.GET, "/api/**")
				.hasAuthority("SCOPE_catalog:read")
				.requestMatchers("/api/**")
				.hasAuthority("SCOPE_catalog:write")
				.requestMatchers("/mcp")
				.hasAnyAuthority("SCOPE_catalog:read", "SCOPE_files:read")
				.anyRequest()
				.authenticated())
			// Bearer tokens only: no cookies, so no CSRF and no HTTP session.
			.csrf((csrf) -> csrf.disable())
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.with(McpResourceServerConfigurer.mcpResourceServer(), Customizer.withDefaults())
			.build();
	}

	/**
	 * Access tokens name the resource they are for (RFC 8707): the one the client asked
	 * for with {@code resource=…}, else the MCP endpoint. The resource server rejects
	 * tokens for any other audience.
	 */
	@Bean
	OAuth2TokenCustomizer<JwtEncodingContext> audienceCustomizer(McpProtectedResource resource) {
		return (context) -> {
			if (!OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())) {
				return;
			}
			Object requested = (context
				.getAuthorizationGrant() instanceof OAuth2ClientCredentialsAuthenticationToken grant)
						? grant.getAdditionalParameters().get("resource") : null;
			context.getClaims().audience(List.of((requested instanceof String uri) ? uri : resource.resource()));
		};
	}

}
