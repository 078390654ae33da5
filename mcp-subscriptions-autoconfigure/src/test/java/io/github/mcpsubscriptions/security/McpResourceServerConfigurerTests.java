package io.github.mcpsubscriptions.security;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code 403} of {@link McpResourceServerConfigurer} over a real port: its
 * {@code scope} names what the refused request needed, whether the refusal comes from a
 * rule of the filter chain or from an {@code @PreAuthorize} on a controller, together
 * with the resource's scopes the token already has; a refusal that names no scope leaves
 * {@code scope} out. Tokens are decoded by a stand-in decoder (the token text lists its
 * audience and scopes); the audience check is the configurer's own.
 */
@SpringBootTest(classes = { McpTestApplication.class, McpResourceServerConfigurerTests.Security.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.security.oauth2.resource=http://localhost/mcp",
				"mcp.security.oauth2.authorization-servers=http://localhost/issuer",
				"mcp.security.oauth2.scopes=mcp,reports:read,reports:write,unused" })
class McpResourceServerConfigurerTests {

	private static final String RESOURCE = "http://localhost/mcp";

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void aChainRuleNamesItsScopeWithTheResourceScopesTheTokenHas() throws Exception {
		HttpResponse<String> refused = postToMcp(token(RESOURCE, "reports:read", "elsewhere:x"));
		assertThat(refused.statusCode()).isEqualTo(403);
		String challenge = challenge(refused);
		assertThat(parameter(challenge, "error")).isEqualTo("insufficient_scope");
		assertThat(parameter(challenge, "scope")).isEqualTo("mcp reports:read");
		assertThat(parameter(challenge, "error_description")).endsWith("(scope mcp)");
		assertThat(parameter(challenge, "resource_metadata"))
			.isEqualTo("http://localhost/.well-known/oauth-protected-resource/mcp");
	}

	@Test
	void aPreAuthorizeRuleNamesTheScopesItTests() throws Exception {
		HttpResponse<String> refused = put("/reports", token(RESOURCE, "mcp"));
		assertThat(refused.statusCode()).isEqualTo(403);
		String challenge = challenge(refused);
		assertThat(parameter(challenge, "error")).isEqualTo("insufficient_scope");
		assertThat(parameter(challenge, "scope")).isEqualTo("mcp reports:write");
		assertThat(put("/reports", token(RESOURCE, "mcp", "reports:write")).statusCode()).isEqualTo(200);
	}

	@Test
	void aRefusalThatNamesNoScopeLeavesScopeOut() throws Exception {
		HttpResponse<String> refused = put("/admin", token(RESOURCE, "mcp", "reports:write"));
		assertThat(refused.statusCode()).isEqualTo(403);
		String challenge = challenge(refused);
		assertThat(parameter(challenge, "error")).isEqualTo("insufficient_scope");
		assertThat(challenge).doesNotContain("scope=");
	}

	@Test
	void withoutATokenThe401NamesTheScopesTheRefusingRuleNeeds() throws Exception {
		HttpResponse<String> refused = postToMcp(null);
		assertThat(refused.statusCode()).isEqualTo(401);
		String challenge = challenge(refused);
		assertThat(challenge).doesNotContain("error=");
		assertThat(parameter(challenge, "scope")).isEqualTo("mcp");
		assertThat(parameter(challenge, "resource_metadata"))
			.isEqualTo("http://localhost/.well-known/oauth-protected-resource/mcp");
		// Either scope opens the reports: the smallest set that does is one of them, not
		// both.
		HttpResponse<String> reports = get("/reports", null);
		assertThat(reports.statusCode()).isEqualTo(401);
		assertThat(parameter(challenge(reports), "scope")).isEqualTo("reports:read");
		assertThat(get("/reports", token(RESOURCE, "reports:read")).statusCode()).isEqualTo(200);
	}

	@Test
	void a401ForARuleThatNamesNoScopeOrForABadTokenLeavesScopeOut() throws Exception {
		HttpResponse<String> admin = put("/admin", null);
		assertThat(admin.statusCode()).isEqualTo(401);
		assertThat(challenge(admin)).contains("resource_metadata=").doesNotContain("scope=");
		HttpResponse<String> badToken = postToMcp("~mcp");
		assertThat(badToken.statusCode()).isEqualTo(401);
		assertThat(challenge(badToken)).contains("invalid_token").doesNotContain("scope=");
	}

	@Test
	void theMetadataClaimsOnlyWhatTheServerDoes() throws Exception {
		HttpResponse<String> metadata = get("/.well-known/oauth-protected-resource/mcp", null);
		assertThat(metadata.statusCode()).isEqualTo(200);
		JsonNode document = JsonMapper.shared().readTree(metadata.body());
		assertThat(document.propertyNames()).containsExactlyInAnyOrder("resource", "authorization_servers",
				"scopes_supported", "bearer_methods_supported");
		assertThat(document.get("resource").stringValue()).isEqualTo(RESOURCE);
		assertThat(document.get("bearer_methods_supported").valueStream().map(JsonNode::stringValue))
			.containsExactly("header");
		assertThat(document.get("scopes_supported").valueStream().map(JsonNode::stringValue)).containsExactly("mcp",
				"reports:read", "reports:write", "unused");
	}

	@Test
	void aTokenForAnotherAudienceIsUnauthorized() throws Exception {
		HttpResponse<String> refused = postToMcp(token("http://other/mcp", "mcp"));
		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(challenge(refused)).contains("invalid_token");
		assertThat(postToMcp(token(RESOURCE, "mcp")).statusCode()).isEqualTo(200);
	}

	/** A token the stand-in decoder reads: audience and scopes separated by '~'. */
	private static String token(String audience, String... scopes) {
		return audience.replace(':', '_').replace('/', '-') + "~" + String.join("~", scopes).replace(':', '_');
	}

	private HttpResponse<String> postToMcp(@Nullable String token) throws Exception {
		McpTestClient client = new McpTestClient(URI.create("http://localhost:" + this.port + "/mcp"),
				(token != null) ? "Bearer " + token : null);
		return client.post(client.initializeBody("2025-11-25"));
	}

	private HttpResponse<String> put(String path, @Nullable String token) throws Exception {
		return send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.PUT(HttpRequest.BodyPublishers.ofString("{}"))
			.header("Content-Type", "application/json"), token);
	}

	private HttpResponse<String> get(String path, @Nullable String token) throws Exception {
		return send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).GET(), token);
	}

	private HttpResponse<String> send(HttpRequest.Builder request, @Nullable String token) throws Exception {
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		return this.http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String challenge(HttpResponse<String> response) {
		return response.headers().firstValue("WWW-Authenticate").orElseThrow();
	}

	private static String parameter(String challenge, String name) {
		Matcher matcher = Pattern.compile("\\b" + name + "=\"([^\"]*)\"").matcher(challenge);
		assertThat(matcher.find()).as(name + " in " + challenge).isTrue();
		return matcher.group(1);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebSecurity
	@EnableMethodSecurity
	static class Security {

		@Bean
		SecurityFilterChain mcpSecurity(HttpSecurity http) {
			return http
				.authorizeHttpRequests((requests) -> requests.requestMatchers("/mcp")
					.hasAuthority("SCOPE_mcp")
					.requestMatchers(HttpMethod.GET, "/reports")
					.hasAnyAuthority("SCOPE_reports:read", "SCOPE_reports:write")
					.requestMatchers("/admin")
					.hasRole("ADMIN")
					.anyRequest()
					.authenticated())
				.csrf((csrf) -> csrf.disable())
				.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
				.with(McpResourceServerConfigurer.mcpResourceServer(), Customizer.withDefaults())
				.build();
		}

		/** Stands in for a real decoder: the configurer adds the audience check to it. */
		@Bean
		JwtDecoder jwtDecoder() {
			return (token) -> {
				String[] parts = token.split("~");
				if (parts.length < 1 || parts[0].isEmpty()) {
					throw new BadJwtException("Malformed token");
				}
				String audience = parts[0].replace('-', '/').replace('_', ':');
				List<String> scopes = Arrays.stream(parts).skip(1).map((scope) -> scope.replace('_', ':')).toList();
				return Jwt.withTokenValue(token)
					.header("alg", "none")
					.subject("client")
					.audience(List.of(audience))
					.claim("scope", String.join(" ", scopes))
					.issuedAt(Instant.now())
					.expiresAt(Instant.now().plusSeconds(60))
					.build();
			};
		}

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	@RestController
	static class Reports {

		@GetMapping("/reports")
		String read() {
			return "reports";
		}

		@PutMapping("/reports")
		@PreAuthorize("hasAuthority('SCOPE_reports:write') and !hasAuthority('SCOPE_banned')")
		String update() {
			return "updated";
		}

		@PutMapping("/admin")
		String admin() {
			return "admin";
		}

	}

}
