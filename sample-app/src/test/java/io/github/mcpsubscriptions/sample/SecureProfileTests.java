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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Profile {@code secure} end to end, over a real port with real tokens from the embedded
 * authorization server, found the way an MCP client finds it: the 401's
 * {@code resource_metadata} link, {@code authorization_servers}, that server's metadata.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
@ActiveProfiles("secure")
class SecureProfileTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String FULL_SCOPES = "catalog:read catalog:restricted catalog:write files:read";

	private static final String LIMITED_SCOPES = "catalog:read";

	private static final int PORT = freePort();

	private static final String BASE = "http://127.0.0.1:" + PORT;

	private static final String META_2026 = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"test\",\"version\":\"1\"},"
			+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final AtomicLong ids = new AtomicLong();

	@DynamicPropertySource
	static void port(DynamicPropertyRegistry registry) {
		registry.add("server.port", () -> PORT);
	}

	@Test
	void withoutATokenA401LinksTheMetadataWhichLeadsToTheTokenEndpoint() throws Exception {
		HttpResponse<String> refused = post(null, initialize(), null);
		assertThat(refused.statusCode()).isEqualTo(401);
		String challenge = refused.headers().firstValue("WWW-Authenticate").orElseThrow();
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
		assertThat(tokenEndpoint()).isEqualTo(BASE + "/oauth2/token");
	}

	/**
	 * The specification's scope selection: the 401's {@code scope} first, else every scope
	 * of {@code scopes_supported}. The 401 names the fewest scopes the endpoint needs, so
	 * even the limited client, asking for exactly those, reaches it.
	 */
	@Test
	void aClientAskingForTheScopesThe401NamesReachesTheEndpoint() throws Exception {
		HttpResponse<String> refused = post(null, initialize(), null);
		assertThat(refused.statusCode()).isEqualTo(401);
		String scope = parameter(refused.headers().firstValue("WWW-Authenticate").orElseThrow(), "scope");
		assertThat(scope).isEqualTo("catalog:read");
		for (String client : List.of("mcp-limited", "mcp-full")) {
			String token = token(client, client + "-secret", scope, null);
			assertThat(post(token, initialize(), null).statusCode()).as(client).isEqualTo(200);
		}
	}

	@Test
	void onlyTheOperatorReadsTheActuator() throws Exception {
		String limited = token("mcp-limited", "mcp-limited-secret", LIMITED_SCOPES, null);
		String full = token("mcp-full", "mcp-full-secret", FULL_SCOPES, null);
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
		String operator = token("mcp-operator", "mcp-operator-secret", "actuator:read", null);
		for (String path : paths) {
			assertThat(actuator(path, operator).statusCode()).as(path + " with the operator's token").isEqualTo(200);
		}
		// The refusal names the scope that would do; the authorization server decides who gets it.
		assertThat(parameter(actuator("/actuator/metrics", full).headers().firstValue("WWW-Authenticate").orElseThrow(),
				"scope"))
			.contains("actuator:read");
		// MCP clients cannot even ask for it.
		HttpResponse<String> asked = tokenResponse("mcp-full", "mcp-full-secret", "actuator:read");
		assertThat(asked.statusCode()).isEqualTo(400);
		assertThat(asked.body()).contains("invalid_scope");
	}

	@Test
	void healthShowsItsStatusToEveryoneAndItsDetailsToTheOperatorAlone() throws Exception {
		String limited = token("mcp-limited", "mcp-limited-secret", LIMITED_SCOPES, null);
		for (String token : Stream.of(null, limited).toList()) {
			HttpResponse<String> health = actuator("/actuator/health", token);
			assertThat(health.statusCode()).isEqualTo(200);
			JsonNode body = json.readTree(health.body());
			assertThat(body.get("status").stringValue()).isEqualTo("UP");
			// The names of the health groups may show; components and details may not.
			assertThat(body.propertyNames()).contains("status").doesNotContain("components", "details");
			assertThat(actuator("/actuator/health/mcp", token).statusCode()).isEqualTo(404);
		}
		String operator = token("mcp-operator", "mcp-operator-secret", "actuator:read", null);
		JsonNode details = json.readTree(actuator("/actuator/health", operator).body());
		assertThat(details.get("components").get("mcp").get("status").stringValue()).isEqualTo("UP");
		assertThat(json.readTree(actuator("/actuator/health/mcp", operator).body()).get("details")).isNotNull();
	}

	@Test
	void eachClientReadsAndListsOnlyWhatItMay() throws Exception {
		String limited = token("mcp-limited", "mcp-limited-secret", LIMITED_SCOPES, null);
		String session = session(limited);
		assertThat(call(limited, session, "resources/read", "{\"uri\":\"catalog://products/3\"}").get("result"))
			.isNotNull();
		for (String forbidden : List.of("catalog://products/4", "catalog://products/5")) {
			assertThat(call(limited, session, "resources/read", "{\"uri\":\"" + forbidden + "\"}").get("error")
				.get("code")
				.intValue()).as(forbidden).isEqualTo(-32002);
		}
		String collection = call(limited, session, "resources/read", "{\"uri\":\"catalog://products\"}")
			.get("result").get("contents").get(0).get("text").stringValue();
		assertThat(json.readTree(collection).valueStream().map((product) -> product.get("id").longValue()))
			.containsExactly(1L, 2L, 3L);
		List<String> listed = listedUris(limited, session);
		assertThat(listed).contains("catalog://products", "catalog://products/3")
			.doesNotContain("catalog://products/4", "catalog://products/5")
			.noneMatch((uri) -> uri.startsWith("file:"));

		String full = token("mcp-full", "mcp-full-secret", FULL_SCOPES, null);
		String fullSession = session(full);
		assertThat(call(full, fullSession, "resources/read", "{\"uri\":\"catalog://products/5\"}").get("result"))
			.isNotNull();
		List<String> fullListing = listedUris(full, fullSession);
		assertThat(fullListing).contains("catalog://products/4", "catalog://products/5");
		String files = fullListing.stream().filter((uri) -> uri.startsWith("file:///")).findFirst().orElseThrow();
		assertThat(call(full, fullSession, "resources/read", "{\"uri\":\"" + files + "\"}").get("result")).isNotNull();
		assertThat(call(limited, session, "resources/read", "{\"uri\":\"" + files + "\"}").get("error")
			.get("code")
			.intValue()).as("files need files:read").isEqualTo(-32002);
	}

	@Test
	void theToolsScopesDecideWhoSeesAndCallsThemAndFindProductsHidesRestrictedProducts() throws Exception {
		String limited = token("mcp-limited", "mcp-limited-secret", LIMITED_SCOPES, null);
		String session = session(limited);
		assertThat(call(limited, session, "tools/list", "{}").get("result").get("tools").valueStream()
			.map((tool) -> tool.get("name").stringValue())).containsExactly("find_products");
		String found = call(limited, session, "tools/call", "{\"name\":\"find_products\",\"arguments\":{\"query\":\"\"}}")
			.get("result").get("content").get(0).get("text").stringValue();
		assertThat(json.readTree(found).valueStream().map((product) -> product.get("id").longValue()))
			.as("restricted products stay hidden").containsExactly(1L, 2L, 3L);
		JsonNode refused = call(limited, session, "tools/call",
				"{\"name\":\"change_price\",\"arguments\":{\"id\":1,\"price\":2}}");
		assertThat(refused.get("error").get("code").intValue()).as("catalog:write is needed").isEqualTo(-32602);

		String full = token("mcp-full", "mcp-full-secret", FULL_SCOPES, null);
		String fullSession = session(full);
		assertThat(call(full, fullSession, "tools/list", "{}").get("result").get("tools").valueStream()
			.map((tool) -> tool.get("name").stringValue())).containsExactly("change_price", "find_products");
		String fullFound = call(full, fullSession, "tools/call",
				"{\"name\":\"find_products\",\"arguments\":{\"query\":\"\"}}")
			.get("result").get("content").get(0).get("text").stringValue();
		assertThat(json.readTree(fullFound).size()).isGreaterThanOrEqualTo(5);
	}

	@Test
	void subscriptionsOfTheRestrictedClientNeverDeliverAForbiddenChild() throws Exception {
		String limited = token("mcp-limited", "mcp-limited-secret", LIMITED_SCOPES, null);
		String session = session(limited);
		assertThat(call(limited, session, "resources/subscribe", "{\"uri\":\"catalog://products/4\"}").get("error")
			.get("code")
			.intValue()).isEqualTo(-32002);
		for (String uri : List.of("catalog://products", "catalog://products/{id}")) {
			assertThat(call(limited, session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}").get("result"))
				.isNotNull();
		}
		try (Sse stream = open(HttpRequest.newBuilder(URI.create(BASE + "/mcp"))
			.GET()
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", session)
			.header("Authorization", "Bearer " + limited))) {
			assertThat(stream.status).isEqualTo(200);
			assertThat(changeInterleavedAndCollect(stream)).containsOnly("catalog://products/1",
					"catalog://products/2", "catalog://products/3");
		}
	}

	@Test
	void listenStreamsOfTheRestrictedClientNeverDeliverAForbiddenChild() throws Exception {
		String limited = token("mcp-limited", "mcp-limited-secret", LIMITED_SCOPES, null);
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\",\"params\":{"
				+ "\"notifications\":{\"resourceSubscriptions\":[\"catalog://products\",\"catalog://products/5\"]},"
				+ META_2026 + "}}";
		try (Sse stream = open(statelessRequest(limited, "subscriptions/listen", body))) {
			assertThat(stream.status).isEqualTo(200);
			JsonNode ack = json.readTree(stream.next());
			assertThat(ack.get("method").stringValue()).isEqualTo("notifications/subscriptions/acknowledged");
			assertThat(ack.toString()).contains("\"catalog://products\"").doesNotContain("catalog://products/5");
			assertThat(changeInterleavedAndCollect(stream)).containsOnly("catalog://products/1",
					"catalog://products/2", "catalog://products/3");
		}
		String read = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{"
				+ "\"uri\":\"catalog://products/5\"," + META_2026 + "}}";
		HttpResponse<String> refused = send(statelessRequest(limited, "resources/read", read)
			.header("Mcp-Name", "catalog://products/5"));
		assertThat(json.readTree(refused.body()).get("error").get("code").intValue()).isEqualTo(-32602);
		String full = token("mcp-full", "mcp-full-secret", FULL_SCOPES, null);
		HttpResponse<String> allowed = send(statelessRequest(full, "resources/read", read)
			.header("Mcp-Name", "catalog://products/5"));
		assertThat(json.readTree(allowed.body()).get("result")).isNotNull();
	}

	@Test
	void theLivePageIsPublicWhileWhatItReadsNeedsAToken() throws Exception {
		for (String path : List.of("/", "/live/app.js", "/live/mcp.js", "/live/page.css")) {
			HttpResponse<String> page = send(HttpRequest.newBuilder(URI.create(BASE + path)));
			assertThat(page.statusCode()).as(path).isEqualTo(200);
		}
		for (String path : List.of("/api/products", "/actuator/metrics/mcp.sessions.active")) {
			assertThat(send(HttpRequest.newBuilder(URI.create(BASE + path))).statusCode()).as(path).isEqualTo(401);
		}
		// The page's permission does not stretch to what a path can climb to.
		assertThat(send(HttpRequest.newBuilder(URI.create(BASE + "/live/../api/products"))).statusCode()).isIn(400, 401);
		assertThat(post(null, initialize(), null).statusCode()).isEqualTo(401);
		String full = token("mcp-full", "mcp-full-secret", FULL_SCOPES, null);
		// What the page sends once a token is pasted into it: its counters are the operator's.
		String operator = token("mcp-operator", "mcp-operator-secret", "actuator:read " + FULL_SCOPES, null);
		assertThat(actuator("/actuator/metrics/mcp.sessions.active", operator).statusCode()).isEqualTo(200);
		assertThat(actuator("/actuator/metrics/mcp.sessions.active", full).statusCode()).isEqualTo(403);
		assertThat(send(HttpRequest.newBuilder(URI.create(BASE + "/api/products")).header("Authorization", "Bearer " + full))
			.statusCode()).isEqualTo(200);
	}

	@Test
	void aTokenForAnotherResourceIsRejected() throws Exception {
		String other = token("mcp-full", "mcp-full-secret", FULL_SCOPES, "https://other.example.com/mcp");
		HttpResponse<String> refused = post(other, initialize(), null);
		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(refused.headers().firstValue("WWW-Authenticate").orElseThrow()).contains("invalid_token");
	}

	@Test
	void aTokenWithoutTheNeededScopeGets403InsufficientScope() throws Exception {
		String writeOnly = token("mcp-full", "mcp-full-secret", "catalog:write", null);
		HttpResponse<String> refused = post(writeOnly, initialize(), null);
		assertThat(refused.statusCode()).isEqualTo(403);
		String challenge = refused.headers().firstValue("WWW-Authenticate").orElseThrow();
		assertThat(parameter(challenge, "error")).isEqualTo("insufficient_scope");
		// The fewest scopes the endpoint needs (one of its two) with the scope the token has, so
		// that a token asked for with exactly these loses nothing: never every scope of the resource.
		assertThat(parameter(challenge, "scope")).isEqualTo("catalog:read catalog:write");
		assertThat(parameter(challenge, "error_description")).contains("(scope catalog:read)");
		assertThat(parameter(challenge, "resource_metadata"))
			.isEqualTo(BASE + "/.well-known/oauth-protected-resource/mcp");
		String limited = token("mcp-limited", "mcp-limited-secret", LIMITED_SCOPES, null);
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
	void templatesAreListedOnlyWhereTheRuleCanGrantSomething() throws Exception {
		String limited = token("mcp-limited", "mcp-limited-secret", LIMITED_SCOPES, null);
		assertThat(templateUris(limited, session(limited))).containsExactly("catalog://products/{id}");
		String full = token("mcp-full", "mcp-full-secret", FULL_SCOPES, null);
		List<String> fullTemplates = templateUris(full, session(full));
		assertThat(fullTemplates).contains("catalog://products/{id}").hasSize(2);
		assertThat(fullTemplates).anyMatch((uri) -> uri.startsWith("file:///"));
	}

	private List<String> templateUris(String token, String session) throws Exception {
		List<String> uris = new ArrayList<>();
		call(token, session, "resources/templates/list", "{}").get("result")
			.get("resourceTemplates")
			.forEach((template) -> uris.add(template.get("uriTemplate").stringValue()));
		return uris;
	}

	@Test
	void aRenewedTokenContinuesTheSessionAndItsAuthenticationJudgesTheDeliveries() throws Exception {
		String narrow = token("mcp-full", "mcp-full-secret", LIMITED_SCOPES, null);
		String session = session(narrow);
		assertThat(call(narrow, session, "resources/subscribe", "{\"uri\":\"catalog://products\"}").get("result"))
			.isNotNull();
		try (Sse stream = open(streamRequest(session, narrow))) {
			assertThat(changeInterleavedAndCollect(stream)).containsOnly("catalog://products/1",
					"catalog://products/2", "catalog://products/3");
		}
		// The same client with a renewed token that has more scopes: same principal, same session.
		String renewed = token("mcp-full", "mcp-full-secret", FULL_SCOPES, null);
		try (Sse stream = open(streamRequest(session, renewed))) {
			assertThat(stream.status).isEqualTo(200);
			assertThat(changeInterleavedAndCollect(stream)).contains("catalog://products/4", "catalog://products/5");
		}
	}

	private static HttpRequest.Builder streamRequest(String session, String token) {
		return HttpRequest.newBuilder(URI.create(BASE + "/mcp"))
			.GET()
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", session)
			.header("Authorization", "Bearer " + token);
	}

	@Test
	void aSessionIsNotFoundWithAnotherClientsToken() throws Exception {
		String session = session(token("mcp-full", "mcp-full-secret", FULL_SCOPES, null));
		String limited = token("mcp-limited", "mcp-limited-secret", LIMITED_SCOPES, null);
		HttpResponse<String> response = post(limited,
				"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/list\"}", session);
		assertThat(response.statusCode()).isEqualTo(404);
	}

	/**
	 * Changes to allowed and forbidden products interleaved, through the REST API with a
	 * token that may write; the last change is to product 3. Delivery keeps order, so by
	 * the time 3 arrives every forbidden change before it has been judged.
	 */
	private List<String> changeInterleavedAndCollect(Sse stream) throws Exception {
		String writer = token("mcp-full", "mcp-full-secret", FULL_SCOPES, null);
		for (long id : new long[] { 4, 1, 5, 2, 4, 3 }) {
			HttpResponse<String> put = send(HttpRequest.newBuilder(URI.create(BASE + "/api/products/" + id))
				.PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"Product " + id + " v" + this.ids.incrementAndGet()
						+ "\",\"price\":" + id + "}"))
				.header("Content-Type", "application/json")
				.header("Authorization", "Bearer " + writer));
			assertThat(put.statusCode()).as("PUT product " + id).isEqualTo(200);
		}
		List<String> delivered = new ArrayList<>();
		while (!delivered.contains("catalog://products/3")) {
			String data = stream.next();
			assertThat(data).as("a notification after " + delivered).isNotNull();
			JsonNode message = json.readTree(data);
			if ("notifications/resources/updated".equals(message.path("method").stringValue(""))) {
				delivered.add(message.get("params").get("uri").stringValue());
			}
		}
		return delivered;
	}

	private String tokenEndpoint() throws Exception {
		HttpResponse<String> refused = post(null, initialize(), null);
		JsonNode metadata = getJson(
				parameter(refused.headers().firstValue("WWW-Authenticate").orElseThrow(), "resource_metadata"));
		String issuer = metadata.get("authorization_servers").get(0).stringValue();
		return getJson(issuer + "/.well-known/oauth-authorization-server").get("token_endpoint").stringValue();
	}

	private HttpResponse<String> actuator(String path, String token) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(BASE + path));
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		return send(request);
	}

	private HttpResponse<String> tokenResponse(String client, String secret, String scope) throws Exception {
		String basic = Base64.getEncoder().encodeToString((client + ":" + secret).getBytes(StandardCharsets.UTF_8));
		return send(HttpRequest.newBuilder(URI.create(tokenEndpoint()))
			.POST(HttpRequest.BodyPublishers.ofString(
					"grant_type=client_credentials&scope=" + URLEncoder.encode(scope, StandardCharsets.UTF_8)))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.header("Authorization", "Basic " + basic));
	}

	private String token(String client, String secret, String scope, String resource) throws Exception {
		StringBuilder form = new StringBuilder("grant_type=client_credentials");
		if (scope != null) {
			form.append("&scope=").append(URLEncoder.encode(scope, StandardCharsets.UTF_8));
		}
		if (resource != null) {
			form.append("&resource=").append(URLEncoder.encode(resource, StandardCharsets.UTF_8));
		}
		String basic = Base64.getEncoder().encodeToString((client + ":" + secret).getBytes(StandardCharsets.UTF_8));
		HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(tokenEndpoint()))
			.POST(HttpRequest.BodyPublishers.ofString(form.toString()))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.header("Authorization", "Basic " + basic));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json.readTree(response.body()).get("access_token").stringValue();
	}

	private String session(String token) throws Exception {
		HttpResponse<String> response = post(token, initialize(), null);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(post(token, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session)
			.statusCode()).isEqualTo(202);
		return session;
	}

	private List<String> listedUris(String token, String session) throws Exception {
		List<String> uris = new ArrayList<>();
		String cursor = null;
		do {
			JsonNode result = call(token, session, "resources/list",
					(cursor != null) ? "{\"cursor\":\"" + cursor + "\"}" : "{}")
				.get("result");
			result.get("resources").forEach((resource) -> uris.add(resource.get("uri").stringValue()));
			JsonNode next = result.get("nextCursor");
			cursor = (next != null && !next.isNull()) ? next.stringValue() : null;
		}
		while (cursor != null);
		return uris;
	}

	private JsonNode call(String token, String session, String method, String params) throws Exception {
		HttpResponse<String> response = post(token, "{\"jsonrpc\":\"2.0\",\"id\":" + this.ids.incrementAndGet()
				+ ",\"method\":\"" + method + "\",\"params\":" + params + "}", session);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json.readTree(response.body());
	}

	private static String initialize() {
		return "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";
	}

	private HttpResponse<String> post(String token, String body, String session) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(BASE + "/mcp"))
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream");
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		if (session != null) {
			request.header("Mcp-Session-Id", session);
		}
		return send(request);
	}

	private HttpRequest.Builder statelessRequest(String token, String method, String body) {
		return HttpRequest.newBuilder(URI.create(BASE + "/mcp"))
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", method)
			.header("Authorization", "Bearer " + token);
	}

	private JsonNode getJson(String url) throws Exception {
		HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url)).GET());
		assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(200);
		return json.readTree(response.body());
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
		return this.http.send(request.timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
	}

	private Sse open(HttpRequest.Builder request) throws Exception {
		HttpResponse<Stream<String>> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
		return new Sse(response);
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

	/** The data of a live SSE stream's events, read on a thread of their own. */
	private static final class Sse implements AutoCloseable {

		final int status;

		private final BlockingQueue<String> data = new LinkedBlockingQueue<>();

		private final Stream<String> lines;

		Sse(HttpResponse<Stream<String>> response) {
			this.status = response.statusCode();
			this.lines = response.body();
			Thread reader = new Thread(() -> {
				try {
					this.lines.forEach((line) -> {
						if (line.startsWith("data:") && line.length() > 5) {
							this.data.add(line.substring(5).strip());
						}
					});
				}
				catch (RuntimeException ex) {
					// Closed by the test.
				}
			}, "sse-reader");
			reader.setDaemon(true);
			reader.start();
		}

		String next() throws InterruptedException {
			return this.data.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		}

		@Override
		public void close() {
			this.lines.close();
		}

	}

}
