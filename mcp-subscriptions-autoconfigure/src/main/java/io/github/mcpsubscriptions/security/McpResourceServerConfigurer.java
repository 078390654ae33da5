package io.github.mcpsubscriptions.security;

import java.io.IOException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtAudienceValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.access.BearerTokenAccessDeniedHandler;
import org.springframework.security.web.access.AccessDeniedHandler;

/**
 * Makes a {@code SecurityFilterChain} an OAuth 2.1 resource server as the MCP
 * authorization specification asks: bearer JWTs whose audience is this server's
 * resource URI (RFC 8707), a {@code 401} with
 * {@code WWW-Authenticate: Bearer resource_metadata="…"}, the protected-resource metadata
 * document (RFC 9728) served by Spring Security's own filter under
 * {@code /.well-known/oauth-protected-resource}, and a {@code 403} with
 * {@code error="insufficient_scope"} and the scopes the request needed. Authorization rules stay the
 * application's:
 * <pre class="code">
 * http.authorizeHttpRequests((requests) -&gt; requests
 *         .requestMatchers("/mcp").hasAuthority("SCOPE_catalog:read")
 *         .anyRequest().authenticated())
 *     .with(McpResourceServerConfigurer.mcpResourceServer(), Customizer.withDefaults());
 * </pre>
 * The {@link McpProtectedResource} and the {@link JwtDecoder} are the application
 * context's beans unless given.
 */
public final class McpResourceServerConfigurer
		extends AbstractHttpConfigurer<McpResourceServerConfigurer, HttpSecurity> {

	private @Nullable McpProtectedResource resource;

	private @Nullable JwtDecoder jwtDecoder;

	private McpResourceServerConfigurer() {
	}

	/**
	 * A configurer to apply with {@code http.with(…)}.
	 * @return the configurer
	 */
	public static McpResourceServerConfigurer mcpResourceServer() {
		return new McpResourceServerConfigurer();
	}

	/**
	 * The resource to describe, instead of the context's bean.
	 * @param resource the resource
	 * @return this configurer
	 */
	public McpResourceServerConfigurer resource(McpProtectedResource resource) {
		this.resource = resource;
		return this;
	}

	/**
	 * The decoder of access tokens, instead of the context's bean; the audience check is
	 * added to it.
	 * @param jwtDecoder the decoder
	 * @return this configurer
	 */
	public McpResourceServerConfigurer jwtDecoder(JwtDecoder jwtDecoder) {
		this.jwtDecoder = jwtDecoder;
		return this;
	}

	@Override
	public void init(HttpSecurity http) {
		ApplicationContext context = http.getSharedObject(ApplicationContext.class);
		McpProtectedResource resource = (this.resource != null) ? this.resource
				: context.getBean(McpProtectedResource.class);
		JwtDecoder decoder = audienceChecking((this.jwtDecoder != null) ? this.jwtDecoder
				: context.getBean(JwtDecoder.class), resource.resource());
		BearerTokenAuthenticationEntryPoint entryPoint = new BearerTokenAuthenticationEntryPoint();
		entryPoint.setResourceMetadataParameterResolver((request) -> resource.metadataUrl());
		http.oauth2ResourceServer((server) -> server.jwt((jwt) -> jwt.decoder(decoder))
			.authenticationEntryPoint(entryPoint)
			.accessDeniedHandler(new InsufficientScopeHandler(resource))
			.protectedResourceMetadata((metadata) -> metadata.protectedResourceMetadataCustomizer((builder) -> {
				builder.resource(resource.resource());
				builder.authorizationServers((servers) -> servers.addAll(resource.authorizationServers()));
				builder.scopes((scopes) -> scopes.addAll(resource.scopes()));
				if (resource.resourceName() != null) {
					builder.resourceName(resource.resourceName());
				}
			})));
		http.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(entryPoint));
	}

	private static JwtDecoder audienceChecking(JwtDecoder decoder, String audience) {
		OAuth2TokenValidator<Jwt> validator = new JwtAudienceValidator(audience);
		return (token) -> {
			Jwt jwt = decoder.decode(token);
			OAuth2TokenValidatorResult result = validator.validate(jwt);
			if (result.hasErrors()) {
				throw new JwtValidationException("The token is not meant for this resource (audience " + audience
						+ ")", result.getErrors());
			}
			return jwt;
		};
	}

	/**
	 * A token without the needed scope: {@code 403} with {@code insufficient_scope}, the
	 * scopes to ask for and the metadata link, so that a client can step up (RFC 6750
	 * §3.1; MCP authorization 2025-11-25, "Runtime Insufficient Scope Errors").
	 * <p>
	 * The scopes are those the refused request needed, as the refusing rule names them
	 * ({@link RequiredScopes}), together with the scopes of this resource the token already
	 * has: the specification's recommended approach, so that a client that asks for exactly
	 * the challenged scopes does not lose what it could do before. When the rule does not
	 * name scopes (a role, a custom decision), {@code scope} is left out rather than
	 * guessed, and clients fall back to {@code scopes_supported}.
	 */
	private static final class InsufficientScopeHandler implements AccessDeniedHandler {

		private final McpProtectedResource resource;

		private final AccessDeniedHandler fallback = new BearerTokenAccessDeniedHandler();

		InsufficientScopeHandler(McpProtectedResource resource) {
			this.resource = resource;
		}

		@Override
		public void handle(HttpServletRequest request, HttpServletResponse response,
				AccessDeniedException accessDeniedException) throws IOException, jakarta.servlet.ServletException {
			if (request.getUserPrincipal() == null) {
				this.fallback.handle(request, response, accessDeniedException);
				return;
			}
			Set<String> needed = RequiredScopes.of(accessDeniedException);
			Set<String> granted = granted(request.getUserPrincipal());
			List<String> parameters = new ArrayList<>();
			parameters.add("error=\"insufficient_scope\"");
			List<String> challenged = challenge(needed, granted);
			List<String> missing = challenged.stream()
				.filter((scope) -> needed.contains(scope) && !granted.contains(scope))
				.toList();
			parameters.add("error_description=\"The request requires higher privileges than provided by the access token"
					+ (missing.isEmpty() ? "" : " (scope " + String.join(" ", missing) + ")") + "\"");
			if (!needed.isEmpty()) {
				parameters.add("scope=\"" + String.join(" ", challenged) + "\"");
			}
			parameters.add("resource_metadata=\"" + this.resource.metadataUrl() + "\"");
			response.setStatus(HttpStatus.FORBIDDEN.value());
			response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer " + String.join(", ", parameters));
		}

		/**
		 * The needed scopes and the granted ones this resource knows, in the order of
		 * {@code scopes_supported}, then any others the rule names.
		 */
		private List<String> challenge(Set<String> needed, Set<String> granted) {
			Set<String> challenged = new LinkedHashSet<>();
			List<String> known = this.resource.scopes();
			for (String scope : known) {
				if (needed.contains(scope) || granted.contains(scope)) {
					challenged.add(scope);
				}
			}
			challenged.addAll(needed);
			if (known.isEmpty()) {
				challenged.addAll(granted);
			}
			return List.copyOf(challenged);
		}

		private static Set<String> granted(@Nullable Principal principal) {
			Set<String> scopes = new LinkedHashSet<>();
			if (principal instanceof Authentication authentication) {
				for (GrantedAuthority authority : authentication.getAuthorities()) {
					String name = authority.getAuthority();
					if (name != null && name.startsWith(RequiredScopes.PREFIX)) {
						scopes.add(name.substring(RequiredScopes.PREFIX.length()));
					}
				}
			}
			return scopes;
		}

	}

}
