package io.github.mcpsubscriptions.cluster;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.UriVariable;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.web.SecurityFilterChain;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.publishInOrder;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The authentication of a session's latest subscribe judges its deliveries in a cluster
 * as on one node, whichever node takes the subscribe and whichever holds the stream: a
 * stream opened with a token that may read restricted product 4 stops delivering it once
 * the same client subscribes with a token that may not, and delivers it again after a
 * subscribe with the first token.
 */
class ClusterLatestAuthenticationTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String FULL = "Bearer client~catalog_read~catalog_restricted";

	private static final String READ_ONLY = "Bearer client~catalog_read";

	private final ClusterNodes nodes = new ClusterNodes(3);

	@AfterEach
	void close() {
		this.nodes.close();
	}

	private ConfigurableApplicationContext start(String name) {
		return this.nodes.run(new Class<?>[] { Security.class },
				this.nodes.redis().nodeArguments("mcp.cluster.node-name=" + name));
	}

	private static McpTestClient client(ConfigurableApplicationContext node, String authorization) {
		int port = ((WebServerApplicationContext) node).getWebServer().getPort();
		return new McpTestClient(URI.create("http://localhost:" + port + "/mcp"), authorization);
	}

	private static void subscribe(McpTestClient client, String session, String uri) throws Exception {
		HttpResponse<String> response = client.call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}");
		assertThat(json(response.body()).has("result")).as(response.body()).isTrue();
	}

	private static String uri(SseEvent event) {
		assertThat(event).as("a notification").isNotNull();
		return json(event.data()).get("params").get("uri").stringValue();
	}

	@Test
	void theLatestSubscribeJudgesTheStreamOnEitherNode() throws Exception {
		ConfigurableApplicationContext a = start("a");
		ConfigurableApplicationContext b = start("b");
		McpTestClient fullOnA = client(a, FULL);
		String session = fullOnA.initialize();
		subscribe(fullOnA, session, "shop://products/4");
		try (SseStream stream = fullOnA.openStream(session)) {
			publishInOrder(a, "shop://products/4");
			assertThat(uri(stream.nextMessage(WAIT))).isEqualTo("shop://products/4");

			assertRestrictedWithheld(client(b, READ_ONLY), session, stream, a);

			subscribe(fullOnA, session, "shop://products/4");
			publishInOrder(b, "shop://products/4");
			assertThat(uri(stream.nextMessage(WAIT))).isEqualTo("shop://products/4");

			// Judged alike on the node holding the stream.
			assertRestrictedWithheld(client(a, READ_ONLY), session, stream, b);
		}
	}

	/**
	 * Subscribe with a read-only token, then publish restricted product 4 and product 1:
	 * only product 1 arrives.
	 */
	private static void assertRestrictedWithheld(McpTestClient readOnly, String session, SseStream stream,
			ConfigurableApplicationContext publisher) throws Exception {
		subscribe(readOnly, session, "shop://products/1");
		publishInOrder(publisher, "shop://products/4");
		publishInOrder(publisher, "shop://products/1");
		assertThat(uri(stream.nextMessage(WAIT))).as("product 4 is no longer delivered").isEqualTo("shop://products/1");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebSecurity
	static class Security {

		@Bean
		SecurityFilterChain mcpSecurity(HttpSecurity http) {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.csrf((csrf) -> csrf.disable())
				.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
				.oauth2ResourceServer((resourceServer) -> resourceServer.jwt(Customizer.withDefaults()))
				.build();
		}

		/**
		 * Stands in for a real decoder: the token names its subject and scopes, '~'
		 * between.
		 */
		@Bean
		JwtDecoder jwtDecoder() {
			return (token) -> {
				String[] parts = token.split("~");
				List<String> scopes = Arrays.stream(parts).skip(1).map((scope) -> scope.replace('_', ':')).toList();
				return Jwt.withTokenValue(token)
					.header("alg", "none")
					.subject(parts[0])
					.claim("scope", String.join(" ", scopes))
					.issuedAt(Instant.now())
					.expiresAt(Instant.now().plusSeconds(600))
					.build();
			};
		}

		@Bean
		Shop shop() {
			return new Shop();
		}

	}

	static class Shop {

		@McpResource(uri = "shop://products/{id}")
		@PreAuthorize("hasAuthority('SCOPE_catalog:read') and (#id < 4 or hasAuthority('SCOPE_catalog:restricted'))")
		String product(@UriVariable("id") long productId) {
			return "product " + productId;
		}

	}

}
