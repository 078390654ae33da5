package io.github.mcpsubscriptions.security;

import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.UriVariable;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.server.ListenStats;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.web.SecurityFilterChain;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream opened with a bearer token ends no later than the token expires: requests with
 * it are refused from then on, and a stream must not deliver under it either. Real signed
 * JWTs, verified by Spring Security's resource server, over a real port.
 */
@SpringBootTest(classes = { McpTestApplication.class, StreamTokenExpiryTests.Catalog.class,
		StreamTokenExpiryTests.Security.class }, webEnvironment = WebEnvironment.RANDOM_PORT)
class StreamTokenExpiryTests {

	private static final KeyPair KEYS = generateKeys();

	/**
	 * Ending is scheduled for the instant of expiry; what the scheduler and the network
	 * add.
	 */
	private static final Duration SLACK = Duration.ofMillis(1500);

	private static final Duration WAIT = Duration.ofSeconds(10);

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private ListenManager listens;

	@Test
	void streamsOpenedWithATokenEndWhenItExpiresAndDeliverNothingAfter() throws Exception {
		// Warmed up with a token that outlives the test: the first requests of a JVM are
		// slow.
		McpTestClient warm = client(Instant.now().plusSeconds(600));
		String warmSession = warm.initialize();
		warm.call(warmSession, "resources/subscribe", "{\"uri\":\"catalog://products/4\"}");
		try (SseStream stream = warm.openStream(warmSession);
				SseStream listen = warm.listen("{\"resourceSubscriptions\":[\"catalog://products/4\"]}")) {
			assertThat(listen.nextMessage(WAIT)).isNotNull();
		}
		// Seconds in a JWT: whole seconds ahead, enough for the streams to open before it
		// on a
		// loaded build machine.
		Instant expiresAt = Instant.now().plusSeconds(8).truncatedTo(ChronoUnit.SECONDS);
		McpTestClient client = client(expiresAt);
		String session = client.initialize();
		assertThat(json(client.call(session, "resources/subscribe", "{\"uri\":\"catalog://products/4\"}").body())
			.get("result")).isNotNull();
		long endedBefore = this.listens.getStats().getEnded(ListenStats.End.TOKEN_EXPIRED);
		try (SseStream stream = client.openStream(session);
				SseStream listen = client.listen("{\"resourceSubscriptions\":[\"catalog://products/4\"]}")) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			assertThat(listen.response().statusCode()).isEqualTo(200);
			assertThat(json(listen.nextMessage(WAIT).data()).get("method").stringValue())
				.isEqualTo("notifications/subscriptions/acknowledged");
			// The restricted product is delivered while the token is valid...
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/4"));
			assertThat(uriOf(stream.nextMessage(WAIT))).isEqualTo("catalog://products/4");
			assertThat(uriOf(listen.nextMessage(WAIT))).isEqualTo("catalog://products/4");
			assertThat(Instant.now()).as("the streams opened before the token expired").isBefore(expiresAt);

			// ...and both streams end by its expiry.
			Duration untilEnd = Duration.between(Instant.now(), expiresAt).plus(SLACK);
			List<SseEvent> last = new ArrayList<>();
			assertThat(awaitEnd(stream, untilEnd, last)).as("the GET stream ends by exp").isTrue();
			assertThat(Instant.now()).isAfterOrEqualTo(expiresAt);
			// With retry: the client resumes it, with a fresh token.
			assertThat(last).extracting(SseEvent::retry).containsOnly("1000");
			last.clear();
			assertThat(awaitEnd(listen, Duration.between(Instant.now(), expiresAt).plus(SLACK), last))
				.as("the listen stream ends by exp")
				.isTrue();
			// Without the completion result: the client listens again.
			assertThat(last).isEmpty();
		}
		assertThat(this.listens.getStats().getEnded(ListenStats.End.TOKEN_EXPIRED)).isEqualTo(endedBefore + 1);
		assertThat(this.sessions.getStream(session)).isNull();
		// The token is refused from now on (past Spring Security's clock skew, which the
		// decoder here does without): nothing reopens the stream under it.
		assertThat(client.openStream(session).response().statusCode()).isEqualTo(401);
	}

	/**
	 * Wait for a stream to end, keeping what came meanwhile (nothing but SSE frames with
	 * no message is expected: a {@code retry}, keep-alive comments).
	 */
	private static boolean awaitEnd(SseStream stream, Duration timeout, List<SseEvent> received)
			throws InterruptedException {
		Instant deadline = Instant.now().plus(timeout);
		while (Instant.now().isBefore(deadline)) {
			SseEvent event = stream.next(Duration.between(Instant.now(), deadline));
			if (event == null) {
				return stream.awaitEnd(Duration.ZERO);
			}
			if (event.comment() == null) {
				received.add(event);
			}
		}
		return stream.awaitEnd(Duration.ZERO);
	}

	private static String uriOf(SseEvent event) {
		assertThat(event).isNotNull();
		JsonNode message = json(event.data());
		assertThat(message.get("method").stringValue()).isEqualTo("notifications/resources/updated");
		return message.get("params").get("uri").stringValue();
	}

	private McpTestClient client(Instant expiresAt) {
		RSAKey key = new RSAKey.Builder((RSAPublicKey) KEYS.getPublic()).privateKey((RSAPrivateKey) KEYS.getPrivate())
			.build();
		NimbusJwtEncoder encoder = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(key)));
		JwtClaimsSet claims = JwtClaimsSet.builder()
			.subject("full")
			.issuedAt(Instant.now())
			.expiresAt(expiresAt)
			.claim("scope", "catalog:read catalog:restricted")
			.build();
		String token = encoder
			.encode(JwtEncoderParameters.from(JwsHeader.with(SignatureAlgorithm.RS256).build(), claims))
			.getTokenValue();
		return new McpTestClient(URI.create("http://localhost:" + this.port + "/mcp"), "Bearer " + token);
	}

	private static KeyPair generateKeys() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			return generator.generateKeyPair();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class Catalog {

		@McpResource(uri = "catalog://products/{id}")
		@PreAuthorize("hasAuthority('SCOPE_catalog:read') and (#id != 4 or hasAuthority('SCOPE_catalog:restricted'))")
		String product(@UriVariable("id") long productId) {
			return "product " + productId;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebSecurity
	static class Security {

		@Bean
		SecurityFilterChain mcpSecurity(HttpSecurity http) {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.oauth2ResourceServer((resourceServer) -> resourceServer.jwt(Customizer.withDefaults()))
				.csrf((csrf) -> csrf.disable())
				.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
				.build();
		}

		@Bean
		JwtDecoder jwtDecoder() {
			NimbusJwtDecoder decoder = NimbusJwtDecoder.withPublicKey((RSAPublicKey) KEYS.getPublic()).build();
			// Expired is expired: no clock skew, so that the test needs not wait a
			// minute.
			decoder.setJwtValidator(new JwtTimestampValidator(Duration.ZERO));
			return decoder;
		}

	}

}
