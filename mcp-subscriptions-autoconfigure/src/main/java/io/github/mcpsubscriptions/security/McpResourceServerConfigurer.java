package io.github.mcpsubscriptions.security;

import java.io.IOException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.ServletException;
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
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtAudienceValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.server.resource.OAuth2ProtectedResourceMetadata;
import org.springframework.security.oauth2.server.resource.OAuth2ProtectedResourceMetadataClaimNames;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.access.BearerTokenAccessDeniedHandler;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;

/**
 * Makes a {@code SecurityFilterChain} an OAuth 2.1 resource server as the MCP
 * authorization specification asks: bearer JWTs whose audience is this server's resource
 * URI (RFC 8707), a {@code 401} with
 * {@code WWW-Authenticate: Bearer resource_metadata="…", scope="…"} (the fewest scopes
 * the refusing rule needs), the protected-resource metadata document (RFC 9728) served by
 * Spring Security's own filter under {@code /.well-known/oauth-protected-resource}, and a
 * {@code 403} with {@code error="insufficient_scope"} and the scopes the request needed.
 * Authorization rules stay the application's: <pre class="code">
 * http.authorizeHttpRequests((requests) -&gt; requests
 *         .requestMatchers("/mcp").hasAuthority("SCOPE_catalog:read")
 *         .anyRequest().authenticated())
 *     .with(McpResourceServerConfigurer.mcpResourceServer(), Customizer.withDefaults());
 * </pre> The {@link McpProtectedResource} and the {@link JwtDecoder} are the application
 * context's beans unless given.
 *
 * @since 0.1.0
 */
public final class McpResourceServerConfigurer
		extends AbstractHttpConfigurer<McpResourceServerConfigurer, HttpSecurity> {

	private @Nullable McpProtectedResource resource;

	private @Nullable JwtDecoder jwtDecoder;

	private Consumer<OAuth2ProtectedResourceMetadata.Builder> metadata = (builder) -> {
	};

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

	/**
	 * Further claims of the metadata document, applied last. The document claims only
	 * what this configurer sets up (bearer tokens in the header, no certificate binding);
	 * an application that binds its tokens to client certificates (a decoder with
	 * {@code X509CertificateThumbprintValidator}) says so here with
	 * {@code tlsClientCertificateBoundAccessTokens(true)}.
	 * @param metadata the customizer
	 * @return this configurer
	 */
	public McpResourceServerConfigurer metadata(Consumer<OAuth2ProtectedResourceMetadata.Builder> metadata) {
		this.metadata = metadata;
		return this;
	}

	@Override
	public void init(HttpSecurity http) {
		ApplicationContext context = http.getSharedObject(ApplicationContext.class);
		McpProtectedResource resource = (this.resource != null) ? this.resource
				: context.getBean(McpProtectedResource.class);
		JwtDecoder decoder = audienceChecking(
				(this.jwtDecoder != null) ? this.jwtDecoder : context.getBean(JwtDecoder.class), resource.resource());
		AuthenticationEntryPoint entryPoint = new ScopeNamingEntryPoint(resource);
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
				// Spring Security's filter claims certificate-bound tokens by default,
				// which
				// this resource server does not check.
				builder.claims((claims) -> claims
					.remove(OAuth2ProtectedResourceMetadataClaimNames.TLS_CLIENT_CERTIFICATE_BOUND_ACCESS_TOKENS));
				this.metadata.accept(builder);
			})));
		http.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(entryPoint));
	}

	private static JwtDecoder audienceChecking(JwtDecoder decoder, String audience) {
		OAuth2TokenValidator<Jwt> validator = new JwtAudienceValidator(audience);
		return (token) -> {
			Jwt jwt = decoder.decode(token);
			OAuth2TokenValidatorResult result = validator.validate(jwt);
			if (result.hasErrors()) {
				throw new JwtValidationException("The token is not meant for this resource (audience " + audience + ")",
						result.getErrors());
			}
			return jwt;
		};
	}

	/**
	 * The scopes to name in a challenge: the needed ones and the granted ones this
	 * resource knows, in the order of {@code scopes_supported}, then any others the rule
	 * names.
	 */
	private static List<String> challenge(McpProtectedResource resource, Set<String> needed, Set<String> granted) {
		Set<String> challenged = new LinkedHashSet<>();
		List<String> known = resource.scopes();
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

	/**
	 * A request without a token: Spring Security's {@code 401} with the metadata link,
	 * and the fewest scopes the refusing rule needs, so that a client following the MCP
	 * specification's scope selection asks for those rather than for every scope of the
	 * resource (MCP authorization 2025-11-25, "Protected Resource Metadata Discovery
	 * Requirements"). A token that is not valid gets no {@code scope}: no rule has judged
	 * the request yet.
	 */
	private static final class ScopeNamingEntryPoint implements AuthenticationEntryPoint {

		private static final Pattern RESOURCE_METADATA = Pattern.compile("resource_metadata=\"[^\"]*\"");

		private final McpProtectedResource resource;

		private final BearerTokenAuthenticationEntryPoint delegate = new BearerTokenAuthenticationEntryPoint();

		ScopeNamingEntryPoint(McpProtectedResource resource) {
			this.resource = resource;
		}

		@Override
		public void commence(HttpServletRequest request, HttpServletResponse response,
				AuthenticationException authException) {
			this.delegate.commence(request, response, authException);
			// The metadata link is set on the header rather than through the entry
			// point's
			// setResourceMetadataParameterResolver, which Spring Security 7.0 (Boot 4.0)
			// lacks.
			String linked = response.getHeader(HttpHeaders.WWW_AUTHENTICATE);
			if (linked != null) {
				String link = "resource_metadata=\"" + this.resource.metadataUrl() + "\"";
				Matcher existing = RESOURCE_METADATA.matcher(linked);
				response.setHeader(HttpHeaders.WWW_AUTHENTICATE,
						existing.find() ? existing.replaceFirst(Matcher.quoteReplacement(link)) : linked + ", " + link);
			}
			if (!(authException instanceof OAuth2AuthenticationException)
					&& authException.getCause() instanceof AccessDeniedException refusal) {
				Set<String> needed = RequiredScopes.of(refusal, Set.of(), this.resource.scopes());
				String challenge = response.getHeader(HttpHeaders.WWW_AUTHENTICATE);
				if (!needed.isEmpty() && challenge != null) {
					response.setHeader(HttpHeaders.WWW_AUTHENTICATE, challenge + ", scope=\""
							+ String.join(" ", challenge(this.resource, needed, Set.of())) + "\"");
				}
			}
		}

	}

	/**
	 * A token without the needed scope: {@code 403} with {@code insufficient_scope}, the
	 * scopes to ask for and the metadata link, so that a client can step up (RFC 6750
	 * §3.1; MCP authorization 2025-11-25, "Runtime Insufficient Scope Errors").
	 * <p>
	 * The scopes are the fewest the refused request needed, as the refusing rule names
	 * them ({@link RequiredScopes}), together with the scopes of this resource the token
	 * already has: the specification's recommended approach, so that a client that asks
	 * for exactly the challenged scopes does not lose what it could do before. When the
	 * rule does not name scopes (a role, a custom decision), {@code scope} is left out
	 * rather than guessed, and clients fall back to {@code scopes_supported}.
	 */
	private static final class InsufficientScopeHandler implements AccessDeniedHandler {

		private final McpProtectedResource resource;

		private final AccessDeniedHandler fallback = new BearerTokenAccessDeniedHandler();

		InsufficientScopeHandler(McpProtectedResource resource) {
			this.resource = resource;
		}

		@Override
		public void handle(HttpServletRequest request, HttpServletResponse response,
				AccessDeniedException accessDeniedException) throws IOException, ServletException {
			if (request.getUserPrincipal() == null) {
				this.fallback.handle(request, response, accessDeniedException);
				return;
			}
			Set<String> granted = granted(request.getUserPrincipal());
			Set<String> needed = RequiredScopes.of(accessDeniedException, granted, this.resource.scopes());
			List<String> parameters = new ArrayList<>();
			parameters.add("error=\"insufficient_scope\"");
			List<String> challenged = challenge(this.resource, needed, granted);
			List<String> missing = challenged.stream()
				.filter((scope) -> needed.contains(scope) && !granted.contains(scope))
				.toList();
			parameters
				.add("error_description=\"The request requires higher privileges than provided by the access token"
						+ (missing.isEmpty() ? "" : " (scope " + String.join(" ", missing) + ")") + "\"");
			if (!needed.isEmpty()) {
				parameters.add("scope=\"" + String.join(" ", challenged) + "\"");
			}
			parameters.add("resource_metadata=\"" + this.resource.metadataUrl() + "\"");
			response.setStatus(HttpStatus.FORBIDDEN.value());
			response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer " + String.join(", ", parameters));
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
