package io.github.mcpsubscriptions.sample;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.github.mcpsubscriptions.tester.McpErrorException;
import io.github.mcpsubscriptions.tester.McpHttpException;
import io.github.mcpsubscriptions.tester.McpResult;
import io.github.mcpsubscriptions.tester.McpSession;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Profile {@code secure} end to end, over a real port with real tokens from the embedded
 * authorization server, found the way an MCP client finds it: the 401's
 * {@code resource_metadata} link, {@code authorization_servers}, that server's metadata.
 * MCP requests go through {@link McpTester}, one per client's token.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
@ActiveProfiles("secure")
class SecureProfileTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String FULL_SCOPES = "catalog:read catalog:restricted catalog:write files:read";

	private static final String LIMITED_SCOPES = "catalog:read";

	// A defined port: the issuer and the protected resource's URL are written with it.
	private static final int PORT = freePort();

	private static final String BASE = "http://127.0.0.1:" + PORT;

	private final McpTester mcp = McpTester.forUrl(BASE + "/mcp");

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final AtomicLong versions = new AtomicLong();

	@DynamicPropertySource
	static void port(DynamicPropertyRegistry registry) {
		registry.add("server.port", () -> PORT);
	}

	// tag::secured[]
	@Test
	void eachPrincipalIsToldOnlyOfWhatItMayRead() {
		assertThatExceptionOfType(McpHttpException.class).isThrownBy(this.mcp::session)
			.satisfies((refused) -> assertThat(refused.status()).isEqualTo(401))
			.satisfies((refused) -> assertThat(refused.header("WWW-Authenticate")).hasValueSatisfying(
					(challenge) -> assertThat(challenge).startsWith("Bearer").contains("resource_metadata=")));

		McpTester full = this.mcp.withBearerToken(token("mcp-full", FULL_SCOPES));
		McpTester limited = this.mcp.withBearerToken(token("mcp-limited", LIMITED_SCOPES));
		try (McpSession fullSession = full.session();
				McpSession limitedSession = limited.session();
				McpSubscription fullListen = full.listen("catalog://products/4");
				McpSubscription limitedListen = limited.listen("catalog://products")) {
			McpSubscription fullProduct = fullSession.subscribe("catalog://products/4");
			McpSubscription limitedProducts = limitedSession.subscribe("catalog://products");
			// Product 4 needs catalog:restricted: for the limited client it is like a
			// product
			// that does not exist. Subscribing is accepted (and never delivers), reading
			// is
			// "not found", for either.
			McpSubscription limitedHidden = limitedSession.subscribe("catalog://products/4");
			limitedSession.subscribe("catalog://products/999999");
			for (String uri : List.of("catalog://products/4", "catalog://products/999999")) {
				assertThatExceptionOfType(McpErrorException.class).isThrownBy(() -> limited.read(uri))
					.satisfies((error) -> assertThat(error.code()).isEqualTo(-32602));
			}

			full.callTool("change_price", Map.of("id", 4, "price", 40));
			full.callTool("change_price", Map.of("id", 3, "price", 30));

			assertThat(fullProduct.awaitNotification().uri()).isEqualTo("catalog://products/4");
			assertThat(fullListen.awaitNotification().uri()).isEqualTo("catalog://products/4");
			// Deliveries keep their order: had the change to 4 reached the limited
			// client, it
			// would have come before the change to 3.
			assertThat(limitedProducts.awaitNotification().uri()).isEqualTo("catalog://products/3");
			assertThat(limitedListen.awaitNotification().uri()).isEqualTo("catalog://products/3");
			limitedHidden.assertNoNotification(Duration.ofMillis(200));
		}
	}
	// end::secured[]

	@Test
	void withoutATokenA401LinksTheMetadataWhichLeadsToTheTokenEndpoint() {
		String challenge = challenge(refused(() -> this.mcp.session(), 401));
		assertThat(challenge).startsWith("Bearer");
		String metadataUrl = parameter(challenge, "resource_metadata");
		assertThat(metadataUrl).isEqualTo(BASE + "/.well-known/oauth-protected-resource/mcp");
		JsonNode metadata = getJson(metadataUrl);
		assertThat(metadata.get("resource").stringValue()).isEqualTo(BASE + "/mcp");
		assertThat(metadata.get("authorization_servers").get(0).stringValue()).isEqualTo(BASE);
		assertThat(metadata.get("scopes_supported").valueStream().map(JsonNode::stringValue))
			.containsExactly("catalog:read", "catalog:restricted", "catalog:write", "files:read");
		assertThat(metadata.get("bearer_methods_supported").get(0).stringValue()).isEqualTo("header");
		assertThat(metadata.propertyNames()).doesNotContain("tls_client_certificate_bound_access_tokens");
		assertThat(getJson(BASE + "/.well-known/oauth-protected-resource").get("resource").stringValue())
			.isEqualTo(BASE + "/mcp");
		// The helpers below take the token endpoint for granted: this is how a client
		// finds it.
		String issuer = metadata.get("authorization_servers").get(0).stringValue();
		assertThat(getJson(issuer + "/.well-known/oauth-authorization-server").get("token_endpoint").stringValue())
			.isEqualTo(BASE + "/oauth2/token");
	}

	/**
	 * The specification's scope selection: the 401's {@code scope} first, else every
	 * scope of {@code scopes_supported}. The 401 names the fewest scopes the endpoint
	 * needs, so even the limited client, asking for exactly those, reaches it.
	 */
	@Test
	void aClientAskingForTheScopesThe401NamesReachesTheEndpoint() {
		String scope = parameter(challenge(refused(() -> this.mcp.session(), 401)), "scope");
		assertThat(scope).isEqualTo("catalog:read");
		for (String client : List.of("mcp-limited", "mcp-full")) {
			try (McpSession session = this.mcp.withBearerToken(token(client, scope)).session()) {
				assertThat(session.id()).as(client).isNotBlank();
			}
		}
	}

	@Test
	void onlyTheOperatorReadsTheActuator() {
		String limited = token("mcp-limited", LIMITED_SCOPES);
		String full = token("mcp-full", FULL_SCOPES);
		List<String> paths = List.of("/actuator/mcpsubscriptions", "/actuator/metrics",
				"/actuator/metrics/mcp.sessions.active", "/actuator/info");
		for (String path : paths) {
			assertThat(actuator(path, null).statusCode()).as(path + " without a token").isEqualTo(401);
			for (String token : List.of(limited, full)) {
				HttpResponse<String> refused = actuator(path, token);
				assertThat(refused.statusCode()).as(path + " with an MCP client's token").isEqualTo(403);
				assertThat(refused.body()).doesNotContain("catalog://");
			}
		}
		String operator = token("mcp-operator", "actuator:read");
		for (String path : paths) {
			assertThat(actuator(path, operator).statusCode()).as(path + " with the operator's token").isEqualTo(200);
		}
		// The refusal names the scope that would do; the authorization server decides who
		// gets it.
		assertThat(parameter(actuator("/actuator/metrics", full).headers().firstValue("WWW-Authenticate").orElseThrow(),
				"scope"))
			.contains("actuator:read");
		// MCP clients cannot even ask for it.
		HttpResponse<String> asked = tokenResponse("mcp-full", "actuator:read", null);
		assertThat(asked.statusCode()).isEqualTo(400);
		assertThat(asked.body()).contains("invalid_scope");
	}

	@Test
	void healthShowsItsStatusToEveryoneAndItsDetailsToTheOperatorAlone() {
		String limited = token("mcp-limited", LIMITED_SCOPES);
		for (String token : Stream.of(null, limited).toList()) {
			HttpResponse<String> health = actuator("/actuator/health", token);
			assertThat(health.statusCode()).isEqualTo(200);
			JsonNode body = json.readTree(health.body());
			assertThat(body.get("status").stringValue()).isEqualTo("UP");
			// The names of the health groups may show; components and details may not.
			assertThat(body.propertyNames()).contains("status").doesNotContain("components", "details");
			assertThat(actuator("/actuator/health/mcp", token).statusCode()).isEqualTo(404);
		}
		String operator = token("mcp-operator", "actuator:read");
		JsonNode details = json.readTree(actuator("/actuator/health", operator).body());
		assertThat(details.get("components").get("mcp").get("status").stringValue()).isEqualTo("UP");
		assertThat(json.readTree(actuator("/actuator/health/mcp", operator).body()).get("details")).isNotNull();
	}

	@Test
	void eachClientReadsAndListsOnlyWhatItMay() {
		McpTester limited = client("mcp-limited", LIMITED_SCOPES);
		McpTester full = client("mcp-full", FULL_SCOPES);
		try (McpSession session = limited.session(); McpSession fullSession = full.session()) {
			assertThat(session.read("catalog://products/3").text()).isNotNull();
			for (String forbidden : List.of("catalog://products/4", "catalog://products/5")) {
				assertThat(errorCode(() -> session.read(forbidden))).as(forbidden).isEqualTo(-32002);
			}
			assertThat(json.readTree(session.read("catalog://products").text())
				.valueStream()
				.map((product) -> product.get("id").longValue())).containsExactly(1L, 2L, 3L);
			assertThat(listed(session)).contains("catalog://products", "catalog://products/3")
				.doesNotContain("catalog://products/4", "catalog://products/5")
				.noneMatch((uri) -> uri.startsWith("file:"));

			assertThat(fullSession.read("catalog://products/5").text()).isNotNull();
			List<String> fullListing = listed(fullSession);
			assertThat(fullListing).contains("catalog://products/4", "catalog://products/5");
			String files = fullListing.stream().filter((uri) -> uri.startsWith("file:///")).findFirst().orElseThrow();
			assertThat(fullSession.read(files).uris()).isNotEmpty();
			assertThat(errorCode(() -> session.read(files))).as("files need files:read").isEqualTo(-32002);
		}
	}

	@Test
	void theToolsScopesDecideWhoSeesAndCallsThemAndFindProductsHidesRestrictedProducts() {
		try (McpSession session = client("mcp-limited", LIMITED_SCOPES).session()) {
			assertThat(toolNames(session)).containsExactly("find_products");
			assertThat(json.readTree(session.callTool("find_products", Map.of("query", "")).text())
				.valueStream()
				.map((product) -> product.get("id").longValue())).as("restricted products stay hidden")
				.containsExactly(1L, 2L, 3L);
			assertThat(errorCode(() -> session.callTool("change_price", Map.of("id", 1, "price", 2))))
				.as("catalog:write is needed")
				.isEqualTo(-32602);
		}
		try (McpSession session = client("mcp-full", FULL_SCOPES).session()) {
			assertThat(toolNames(session)).containsExactly("change_price", "find_products");
			assertThat(json.readTree(session.callTool("find_products", Map.of("query", "")).text()).size())
				.isGreaterThanOrEqualTo(5);
		}
	}

	@Test
	void subscriptionsOfTheRestrictedClientNeverDeliverAForbiddenChild() {
		try (McpSession session = client("mcp-limited", LIMITED_SCOPES).session()) {
			// Accepted as a product that does not exist would be: it never delivers.
			McpSubscription hidden = session.subscribe("catalog://products/4");
			McpSubscription collection = session.subscribe("catalog://products");
			McpSubscription template = session.subscribe("catalog://products/{id}");

			changeInterleaved();

			// Correlated, each subscription hears of every change it covers that the
			// client may read.
			assertThat(collectUntilProduct3(collection)).containsOnly("catalog://products/1", "catalog://products/2",
					"catalog://products/3");
			assertThat(collectUntilProduct3(template)).containsOnly("catalog://products/1", "catalog://products/2",
					"catalog://products/3");
			// The changes to 4 came before the one to 3, on the same stream.
			hidden.assertNoNotification(Duration.ofMillis(200));
		}
	}

	@Test
	void listenStreamsOfTheRestrictedClientNeverDeliverAForbiddenChild() {
		McpTester limited = client("mcp-limited", LIMITED_SCOPES);
		try (McpSubscription stream = limited.listen("catalog://products", "catalog://products/5")) {
			// Product 5 is hidden: honoured as a product that does not exist is, never
			// delivered.
			assertThat(stream.acknowledged()).containsExactly("catalog://products", "catalog://products/5");

			changeInterleaved();

			assertThat(collectUntilProduct3(stream)).containsOnly("catalog://products/1", "catalog://products/2",
					"catalog://products/3");
		}
		assertThat(errorCode(() -> limited.read("catalog://products/5"))).isEqualTo(-32602);
		assertThat(client("mcp-full", FULL_SCOPES).read("catalog://products/5").text()).isNotNull();
	}

	@Test
	void theLivePageIsPublicWhileWhatItReadsNeedsAToken() {
		for (String path : List.of("/", "/live/app.js", "/live/mcp.js", "/live/page.css")) {
			HttpResponse<String> page = send(HttpRequest.newBuilder(URI.create(BASE + path)));
			assertThat(page.statusCode()).as(path).isEqualTo(200);
		}
		for (String path : List.of("/api/products", "/actuator/metrics/mcp.sessions.active")) {
			assertThat(send(HttpRequest.newBuilder(URI.create(BASE + path))).statusCode()).as(path).isEqualTo(401);
		}
		// The page's permission does not stretch to what a path can climb to.
		assertThat(send(HttpRequest.newBuilder(URI.create(BASE + "/live/../api/products"))).statusCode()).isIn(400,
				401);
		refused(() -> this.mcp.session(), 401);
		String full = token("mcp-full", FULL_SCOPES);
		// What the page sends once a token is pasted into it: its counters are the
		// operator's.
		String operator = token("mcp-operator", "actuator:read " + FULL_SCOPES);
		assertThat(actuator("/actuator/metrics/mcp.sessions.active", operator).statusCode()).isEqualTo(200);
		assertThat(actuator("/actuator/metrics/mcp.sessions.active", full).statusCode()).isEqualTo(403);
		assertThat(send(
				HttpRequest.newBuilder(URI.create(BASE + "/api/products")).header("Authorization", "Bearer " + full))
			.statusCode()).isEqualTo(200);
	}

	@Test
	void aTokenForAnotherResourceIsRejected() {
		HttpResponse<String> issued = tokenResponse("mcp-full", FULL_SCOPES, "https://other.example.com/mcp");
		assertThat(issued.statusCode()).as(issued.body()).isEqualTo(200);
		String other = json.readTree(issued.body()).get("access_token").stringValue();
		assertThat(challenge(refused(() -> this.mcp.withBearerToken(other).session(), 401))).contains("invalid_token");
	}

	@Test
	void aTokenWithoutTheNeededScopeGets403InsufficientScope() {
		McpTester writeOnly = this.mcp.withBearerToken(token("mcp-full", "catalog:write"));
		String challenge = challenge(refused(writeOnly::session, 403));
		assertThat(parameter(challenge, "error")).isEqualTo("insufficient_scope");
		// The fewest scopes the endpoint needs (one of its two) with the scope the token
		// has, so
		// that a token asked for with exactly these loses nothing: never every scope of
		// the resource.
		assertThat(parameter(challenge, "scope")).isEqualTo("catalog:read catalog:write");
		assertThat(parameter(challenge, "error_description")).contains("(scope catalog:read)");
		assertThat(parameter(challenge, "resource_metadata"))
			.isEqualTo(BASE + "/.well-known/oauth-protected-resource/mcp");
		String limited = token("mcp-limited", LIMITED_SCOPES);
		HttpResponse<String> write = send(HttpRequest.newBuilder(URI.create(BASE + "/api/products/1"))
			.PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"x\",\"price\":1}"))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + limited));
		assertThat(write.statusCode()).isEqualTo(403);
		String writeChallenge = write.headers().firstValue("WWW-Authenticate").orElseThrow();
		assertThat(parameter(writeChallenge, "error")).isEqualTo("insufficient_scope");
		assertThat(parameter(writeChallenge, "scope")).isEqualTo("catalog:read catalog:write");
		assertThat(parameter(writeChallenge, "error_description")).contains("scope catalog:write");
	}

	@Test
	void templatesAreListedOnlyWhereTheRuleCanGrantSomething() {
		try (McpSession session = client("mcp-limited", LIMITED_SCOPES).session()) {
			assertThat(templateUris(session)).containsExactly("catalog://products/{id}");
		}
		try (McpSession session = client("mcp-full", FULL_SCOPES).session()) {
			List<String> fullTemplates = templateUris(session);
			assertThat(fullTemplates).contains("catalog://products/{id}").hasSize(2);
			assertThat(fullTemplates).anyMatch((uri) -> uri.startsWith("file:///"));
		}
	}

	@Test
	void aRenewedTokenContinuesTheSessionAndItsAuthenticationJudgesTheDeliveries() {
		try (McpSession session = client("mcp-full", LIMITED_SCOPES).session()) {
			McpSubscription products = session.subscribe("catalog://products");
			changeInterleaved();
			assertThat(collectUntilProduct3(products)).containsOnly("catalog://products/1", "catalog://products/2",
					"catalog://products/3");

			// The same client with a renewed token that has more scopes: same principal,
			// same session.
			session.via(client("mcp-full", FULL_SCOPES)).reopenStream();

			changeInterleaved();
			assertThat(collectUntilProduct3(products)).contains("catalog://products/4", "catalog://products/5");
		}
	}

	@Test
	void aSessionIsNotFoundWithAnotherClientsToken() {
		try (McpSession session = client("mcp-full", FULL_SCOPES).session()) {
			McpSession stolen = session.via(client("mcp-limited", LIMITED_SCOPES));
			assertThatExceptionOfType(McpErrorException.class).isThrownBy(stolen::listResources)
				.satisfies((error) -> assertThat(error.httpStatus()).isEqualTo(404))
				.satisfies((error) -> assertThat(error.code()).isEqualTo(-32001));
		}
	}

	/**
	 * Changes to allowed and forbidden products interleaved, through the REST API with a
	 * token that may write; the last change is to product 3. Delivery keeps order, so by
	 * the time 3 arrives every forbidden change before it has been judged.
	 */
	private void changeInterleaved() {
		String writer = token("mcp-full", FULL_SCOPES);
		for (long id : new long[] { 4, 1, 5, 2, 4, 3 }) {
			HttpResponse<String> put = send(HttpRequest.newBuilder(URI.create(BASE + "/api/products/" + id))
				.PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"Product " + id + " v"
						+ this.versions.incrementAndGet() + "\",\"price\":" + id + "}"))
				.header("Content-Type", "application/json")
				.header("Authorization", "Bearer " + writer));
			assertThat(put.statusCode()).as("PUT product " + id).isEqualTo(200);
		}
	}

	private static List<String> collectUntilProduct3(McpSubscription subscription) {
		List<String> delivered = new ArrayList<>();
		while (!delivered.contains("catalog://products/3")) {
			delivered.add(subscription.awaitNotification().uri());
		}
		return delivered;
	}

	private McpTester client(String client, String scope) {
		return this.mcp.withBearerToken(token(client, scope));
	}

	// tag::token[]
	/**
	 * A token by the client_credentials grant; every sample client's secret is its id +
	 * "-secret".
	 */
	private static String token(String client, String scope) {
		MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
		form.add("grant_type", "client_credentials");
		form.add("scope", scope);
		Map<?, ?> answer = RestClient.create()
			.post()
			.uri(BASE + "/oauth2/token")
			.headers((headers) -> headers.setBasicAuth(client, client + "-secret"))
			.contentType(MediaType.APPLICATION_FORM_URLENCODED)
			.body(form)
			.retrieve()
			.body(Map.class);
		return (String) answer.get("access_token");
	}
	// end::token[]

	private HttpResponse<String> tokenResponse(String client, String scope, String resource) {
		String form = "grant_type=client_credentials&scope=" + URLEncoder.encode(scope, StandardCharsets.UTF_8)
				+ ((resource != null) ? "&resource=" + URLEncoder.encode(resource, StandardCharsets.UTF_8) : "");
		String basic = Base64.getEncoder()
			.encodeToString((client + ":" + client + "-secret").getBytes(StandardCharsets.UTF_8));
		return send(HttpRequest.newBuilder(URI.create(BASE + "/oauth2/token"))
			.POST(HttpRequest.BodyPublishers.ofString(form))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.header("Authorization", "Basic " + basic));
	}

	private static McpHttpException refused(ThrowingCallable call, int status) {
		McpHttpException refused = catchThrowableOfType(McpHttpException.class, call);
		assertThat(refused).as("refused with HTTP " + status).isNotNull();
		assertThat(refused.status()).as(refused.getMessage()).isEqualTo(status);
		return refused;
	}

	private static String challenge(McpHttpException refused) {
		return refused.header("WWW-Authenticate").orElseThrow();
	}

	private static int errorCode(ThrowingCallable call) {
		McpErrorException error = catchThrowableOfType(McpErrorException.class, call);
		assertThat(error).as("a JSON-RPC error").isNotNull();
		return error.code();
	}

	private static List<String> listed(McpSession session) {
		McpResult listing = session.listResources();
		assertThat(listing.json().path("nextCursor").isString()).as("everything on one page").isFalse();
		return listing.uris();
	}

	private static List<String> toolNames(McpSession session) {
		return session.call("tools/list", json.createObjectNode())
			.get("tools")
			.valueStream()
			.map((tool) -> tool.get("name").stringValue())
			.toList();
	}

	private static List<String> templateUris(McpSession session) {
		return session.call("resources/templates/list", json.createObjectNode())
			.get("resourceTemplates")
			.valueStream()
			.map((template) -> template.get("uriTemplate").stringValue())
			.toList();
	}

	private HttpResponse<String> actuator(String path, String token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(BASE + path));
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		return send(request);
	}

	private JsonNode getJson(String url) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url)).GET());
		assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(200);
		return json.readTree(response.body());
	}

	private HttpResponse<String> send(HttpRequest.Builder request) {
		try {
			return this.http.send(request.timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static String parameter(String challenge, String name) {
		Matcher matcher = Pattern.compile("\\b" + name + "=\"([^\"]*)\"").matcher(challenge);
		assertThat(matcher.find()).as(name + " in " + challenge).isTrue();
		return matcher.group(1);
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
