package io.github.mcpsubscriptions.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.oauth2.core.DefaultOAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthentication;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.publishInOrder;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a log record's principal may make a node build: the types an authentication
 * consists of, within bounds. Anything else is rejected, counted, and the record's name
 * judges; the reader goes on.
 */
class ClusterPrincipalFilterTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final ClusterNodes nodes = new ClusterNodes(3);

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void aRecordOfNestedHashSetsIsRejectedAndTheReaderKeepsDelivering() throws Exception {
		ConfigurableApplicationContext node = this.nodes.start("a");
		McpTestClient client = ClusterNodes.client(node);
		String session = client.initialize();
		assertThat(client.call(session, "resources/subscribe", "{\"uri\":\"c://items\"}").statusCode()).isEqualTo(200);
		try (SseStream stream = client.openStream(session)) {
			publishInOrder(node, "c://items/1");
			assertThat(uri(stream.nextMessage(WAIT))).isEqualTo("c://items/1");
			String record = serialized(nestedSets(30));
			assertThat(record.length()).as("a record of about 2 KB").isLessThan(3000);
			// Forged by anyone who can write the log: a subscription of the session
			// carrying it.
			this.nodes.redis()
				.redis()
				.opsForStream()
				.add(this.nodes.redis().prefix() + "{log}", Map.of(RedisChangeLog.KIND, RedisSessionStore.SUBSCRIBE,
						"s", session, "u", "c://items", "pn", "alice", "pa", record));
			publishInOrder(node, "c://items/2");
			assertThat(uri(stream.nextMessage(WAIT))).as("the reader goes on").isEqualTo("c://items/2");
			MeterRegistry meters = node.getBean(MeterRegistry.class);
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(meters.get("mcp.cluster.principals.rejected").functionCounter().count())
					.isEqualTo(1));
		}
	}

	@Test
	void aClassThatNoAuthenticationConsistsOfIsRejectedAndCounted() {
		ClusterStats stats = new ClusterStats();
		PriorityQueue<String> queue = new PriorityQueue<>(List.of("a", "b"));
		Principal principal = PrincipalCodec.principal(record("mallory", serialized(queue)), stats);
		assertThat(principal).isEqualTo(new PrincipalCodec.NamedPrincipal("mallory"));
		Principal own = PrincipalCodec.principal(record("mallory", serialized(new OwnPrincipal("mallory"))), stats);
		assertThat(own).as("a class of the application's").isEqualTo(new PrincipalCodec.NamedPrincipal("mallory"));
		assertThat(stats.getRejectedPrincipals()).isEqualTo(2);
	}

	@Test
	void nestedHashSetsAreRejectedWithoutBuildingThem() {
		ClusterStats stats = new ClusterStats();
		Principal principal = PrincipalCodec.principal(record("alice", serialized(nestedSets(30))), stats);
		assertThat(principal).isEqualTo(new PrincipalCodec.NamedPrincipal("alice"));
		assertThat(stats.getRejectedPrincipals()).isEqualTo(1);
	}

	@Test
	void aJwtAuthenticationTokenRoundTrips() {
		Map<String, Object> realm = new LinkedHashMap<>();
		realm.put("roles", List.of("reader", "writer"));
		realm.put("client", Map.of("roles", List.of("admin"), "level", 3));
		Jwt jwt = Jwt.withTokenValue("token")
			.header("alg", "RS256")
			.subject("alice")
			.issuer("https://issuer.example")
			.audience(List.of("mcp"))
			.issuedAt(Instant.parse("2026-01-01T00:00:00Z"))
			.expiresAt(Instant.parse("2026-01-01T01:00:00Z"))
			.claim("scope", "catalog:read catalog:restricted")
			.claim("realm_access", realm)
			.claim("email_verified", true)
			.claim("weight", 1.5)
			.build();
		JwtAuthenticationToken token = new JwtAuthenticationToken(jwt,
				AuthorityUtils.createAuthorityList("SCOPE_catalog:read", "SCOPE_catalog:restricted"), "alice");
		assertRoundTrips(token);
	}

	@Test
	void opaqueTokenAndPasswordAuthenticationsRoundTrip() {
		Map<String, Object> attributes = new LinkedHashMap<>();
		attributes.put("sub", "bob");
		attributes.put("scope", List.of("catalog:read"));
		attributes.put("exp", Instant.parse("2026-01-01T01:00:00Z"));
		DefaultOAuth2AuthenticatedPrincipal introspected = new DefaultOAuth2AuthenticatedPrincipal("bob", attributes,
				AuthorityUtils.createAuthorityList("SCOPE_catalog:read"));
		OAuth2AccessToken accessToken = new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, "opaque",
				Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T01:00:00Z"), Set.of("catalog:read"));
		assertRoundTrips(new BearerTokenAuthentication(introspected, accessToken, introspected.getAuthorities()));
		User user = new User("carol", "", AuthorityUtils.createAuthorityList("ROLE_USER"));
		assertRoundTrips(UsernamePasswordAuthenticationToken.authenticated(user, null, user.getAuthorities()));
	}

	private static void assertRoundTrips(Principal authentication) {
		ClusterStats stats = new ClusterStats();
		Map<Object, Object> fields = new LinkedHashMap<>(PrincipalCodec.fields(authentication));
		assertThat(fields).containsKey("pa");
		Principal read = PrincipalCodec.principal(fields, stats);
		assertThat(read).isInstanceOf(authentication.getClass());
		assertThat(read).usingRecursiveComparison().isEqualTo(authentication);
		assertThat(stats.getRejectedPrincipals()).isZero();
	}

	private static Map<Object, Object> record(String name, String serialized) {
		return Map.of("pn", name, "pa", serialized);
	}

	/**
	 * Sets that hold each other, two at each level: building them back hashes each level
	 * twice as often as the one below.
	 */
	static HashSet<Object> nestedSets(int levels) {
		HashSet<Object> root = new HashSet<>();
		Set<Object> left = root;
		Set<Object> right = new HashSet<>();
		for (int i = 0; i < levels; i++) {
			Set<Object> one = new HashSet<>();
			Set<Object> two = new HashSet<>();
			one.add("x");
			left.add(one);
			left.add(two);
			right.add(one);
			right.add(two);
			left = one;
			right = two;
		}
		return root;
	}

	static String serialized(Serializable value) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
			out.writeObject(value);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		return Base64.getEncoder().encodeToString(bytes.toByteArray());
	}

	private static String uri(SseEvent event) {
		assertThat(event).isNotNull();
		return json(event.data()).get("params").get("uri").stringValue();
	}

	record OwnPrincipal(String name) implements Principal, Serializable {

		@Override
		public String getName() {
			return this.name;
		}

	}

}
