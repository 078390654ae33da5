package io.github.mcpsubscriptions.server;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Protocol 2026-07-28 over a real port: stateless requests, discover, results with
 * caching hints, and a precise answer to each kind of bad request.
 */
@SpringBootTest(classes = { McpTestApplication.class, StatelessProtocolTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.resources.cache.ttl=30s", "mcp.resources.cache.scope=public", "mcp.server.name=stateless",
				"mcp.server.version=2.0.0", "mcp.server.instructions=Listen for changes." })
class StatelessProtocolTests {

	@LocalServerPort
	private int port;

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void discoverAdvertisesVersionsCapabilitiesAndIdentity() throws Exception {
		HttpResponse<String> response = this.client.stateless("server/discover", "");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
		JsonNode result = json(response.body()).get("result");
		assertThat(result.get("resultType").stringValue()).isEqualTo("complete");
		assertThat(result.get("supportedVersions")).extracting(JsonNode::stringValue)
			.containsExactly("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26");
		assertThat(result.get("capabilities").get("resources").get("subscribe").booleanValue()).isTrue();
		assertThat(result.get("capabilities").get("resources").get("listChanged").booleanValue()).isTrue();
		assertThat(result.get("instructions").stringValue()).isEqualTo("Listen for changes.");
		assertThat(result.get("capabilities").has("tools")).as("no tools here").isFalse();
		JsonNode serverInfo = result.get("_meta").get("io.modelcontextprotocol/serverInfo");
		assertThat(serverInfo.get("name").stringValue()).isEqualTo("stateless");
		assertThat(serverInfo.get("version").stringValue()).isEqualTo("2.0.0");
		assertThat(result.get("ttlMs").longValue()).isEqualTo(30_000);
		assertThat(result.get("cacheScope").stringValue()).isEqualTo("public");
	}

	@Test
	void listsWithCachingHints() throws Exception {
		JsonNode list = result(this.client.stateless("resources/list", ""));
		assertThat(list.get("resultType").stringValue()).isEqualTo("complete");
		assertThat(list.get("resources").get(0).get("uri").stringValue()).isEqualTo("s://doc");
		assertThat(list.get("ttlMs").longValue()).isEqualTo(30_000);
		assertThat(list.get("cacheScope").stringValue()).isEqualTo("public");
		assertThat(list.get("_meta").has("io.modelcontextprotocol/serverInfo")).isTrue();
		JsonNode templates = result(this.client.stateless("resources/templates/list", ""));
		assertThat(templates.get("resourceTemplates").get(0).get("uriTemplate").stringValue())
			.isEqualTo("s://users/{id}");
		assertThat(templates.get("ttlMs").isIntegralNumber()).isTrue();
	}

	@Test
	void readsWithTheResourcesOwnCachingHints() throws Exception {
		JsonNode doc = result(this.client.stateless("resources/read", "\"uri\":\"s://doc\""));
		assertThat(doc.get("contents").get(0).get("text").stringValue()).isEqualTo("doc");
		assertThat(doc.get("ttlMs").longValue()).isEqualTo(30_000);
		JsonNode user = result(this.client.stateless("resources/read", "\"uri\":\"s://users/7\""));
		assertThat(user.get("ttlMs").longValue()).isEqualTo(5_000);
		assertThat(user.get("cacheScope").stringValue()).isEqualTo("private");
	}

	@Test
	void unknownResourceIsInvalidParamsWithUri() throws Exception {
		HttpResponse<String> response = this.client.stateless("resources/read", "\"uri\":\"s://nope\"");
		JsonNode error = json(response.body()).get("error");
		assertThat(error.get("code").intValue()).isEqualTo(-32602);
		assertThat(error.get("data").get("uri").stringValue()).isEqualTo("s://nope");
		assertThat(json(response.body()).has("result")).isFalse();
	}

	@Test
	void withoutToolsThereIsNoToolsCapabilityAndNoToolsMethods() throws Exception {
		// As the conformance suite checks: what is not advertised answers -32601 (HTTP
		// 404).
		for (String method : new String[] { "tools/list", "tools/call" }) {
			HttpResponse<String> response = this.client.stateless(method, "\"name\":\"x\"");
			assertThat(response.statusCode()).isEqualTo(404);
			assertThat(json(response.body()).get("error").get("code").intValue()).isEqualTo(-32601);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "prompts/list" })
	void promptListsAreEmptyAndCacheable(String method) throws Exception {
		JsonNode result = result(this.client.stateless(method, ""));
		assertThat(result.get(method.substring(0, method.indexOf('/'))).isEmpty()).isTrue();
		assertThat(result.get("ttlMs").isIntegralNumber()).isTrue();
		assertThat(result.get("cacheScope").stringValue()).isEqualTo("public");
	}

	@ParameterizedTest
	@ValueSource(strings = { "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe",
			"unknown/method" })
	void methodsThisEraDoesNotHaveAre404(String method) throws Exception {
		HttpResponse<String> response = this.client.stateless(method, "");
		assertThat(response.statusCode()).isEqualTo(404);
		JsonNode body = json(response.body());
		assertThat(body.get("error").get("code").intValue()).isEqualTo(-32601);
		assertThat(body.get("id").isIntegralNumber()).as("the id is echoed").isTrue();
	}

	@Test
	void missingMetaIsInvalidParams() throws Exception {
		HttpResponse<String> response = discover(101, "{}", "2026-07-28");
		assertError(response, 400, -32602);
		assertThat(json(response.body()).get("id").intValue()).isEqualTo(101);
	}

	@Test
	void metaWithoutProtocolVersionOrCapabilitiesIsInvalidParams() throws Exception {
		assertError(discover(102, "{\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{}}}", "2026-07-28"), 400,
				-32602);
		assertError(
				discover(102, "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}", "2026-07-28"),
				400, -32602);
	}

	@Test
	void clientInfoIsOptional() throws Exception {
		assertThat(discover(105, metaOnly("2026-07-28"), "2026-07-28").statusCode()).isEqualTo(200);
	}

	@Test
	void versionHeaderMustMatchMeta() throws Exception {
		assertError(discover(302, metaOnly("v999.0.0"), "2026-07-28"), 400, -32020);
	}

	@Test
	void unsupportedVersionListsSupportedOnes() throws Exception {
		JsonNode error = assertError(discover(301, metaOnly("v999.0.0"), "v999.0.0"), 400, -32022);
		assertThat(error.get("data").get("requested").stringValue()).isEqualTo("v999.0.0");
		assertThat(error.get("data").get("supported")).extracting(JsonNode::stringValue).contains("2026-07-28");
	}

	/** A server/discover request with exactly the given params and version header. */
	private HttpResponse<String> discover(int id, String params, String versionHeader) throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"server/discover\",\"params\":" + params
				+ "}";
		return this.client.send(this.client.postRequest(body)
			.header("MCP-Protocol-Version", versionHeader)
			.header("Mcp-Method", "server/discover")
			.build());
	}

	/** {@code _meta} with a protocol version and capabilities, and no client info. */
	private static String metaOnly(String version) {
		return "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + version + "\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}}";
	}

	@Test
	void missingOrMismatchedMethodHeaderIsHeaderMismatch() throws Exception {
		assertError(this.client.stateless("resources/list", "", "Mcp-Method", "prompts/list"), 400, -32020);
		assertError(this.client.stateless("resources/list", "", "Mcp-Method", "RESOURCES/LIST"), 400, -32020);
		HttpRequest.Builder withoutMethod = this.client
			.postRequest("{\"jsonrpc\":\"2.0\",\"id\":1," + "\"method\":\"resources/list\",\"params\":{"
					+ McpTestClient.META_2026 + "}}")
			.header("MCP-Protocol-Version", "2026-07-28");
		assertError(this.client.send(withoutMethod.build()), 400, -32020);
	}

	@Test
	void headerNamesAreCaseInsensitiveAndValuesTrimmed() throws Exception {
		assertThat(this.client.stateless("resources/list", "", "mcp-method", "resources/list").statusCode())
			.isEqualTo(200);
		assertThat(
				this.client.stateless("resources/read", "\"uri\":\"s://doc\"", "Mcp-Name", "  s://doc  ").statusCode())
			.isEqualTo(200);
	}

	@Test
	void readNeedsMatchingNameHeader() throws Exception {
		assertError(this.client.stateless("resources/read", "\"uri\":\"s://doc\"", "Mcp-Name", "s://other"), 400,
				-32020);
		HttpRequest.Builder withoutName = this.client
			.postRequest("{\"jsonrpc\":\"2.0\",\"id\":1,"
					+ "\"method\":\"resources/read\",\"params\":{\"uri\":\"s://doc\"," + McpTestClient.META_2026 + "}}")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", "resources/read");
		assertError(this.client.send(withoutName.build()), 400, -32020);
	}

	@Test
	void nameHeaderMayBeBase64Encoded() throws Exception {
		String encoded = "=?base64?" + Base64.getEncoder().encodeToString("s://doc".getBytes(StandardCharsets.UTF_8))
				+ "?=";
		assertThat(this.client.stateless("resources/read", "\"uri\":\"s://doc\"", "Mcp-Name", encoded).statusCode())
			.isEqualTo(200);
	}

	@Test
	void staleSessionHeaderIsIgnored() throws Exception {
		assertThat(this.client.stateless("resources/list", "", "Mcp-Session-Id", "left-over").statusCode())
			.isEqualTo(200);
	}

	@Test
	void foreignHostIsForbidden() throws Exception {
		HttpResponse<String> response = this.client.stateless("server/discover", "", "Host", "evil.example.com",
				"Origin", "http://evil.example.com");
		assertThat(response.statusCode()).isEqualTo(403);
	}

	@Test
	void bothErasOnOneEndpoint() throws Exception {
		String session = this.client.initialize();
		assertThat(json(this.client.call(session, "ping", null).body()).has("result")).isTrue();
		assertThat(this.client.stateless("server/discover", "").statusCode()).isEqualTo(200);
	}

	private static JsonNode result(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode body = json(response.body());
		assertThat(body.has("error")).as(response.body()).isFalse();
		return body.get("result");
	}

	private static JsonNode assertError(HttpResponse<String> response, int status, int code) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		JsonNode body = json(response.body());
		assertThat(body.get("error").get("code").intValue()).as(response.body()).isEqualTo(code);
		return body.get("error");
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Docs docs() {
			return new Docs();
		}

	}

	static class Docs {

		@McpResource(uri = "s://doc")
		String doc() {
			return "doc";
		}

		@McpResource(uri = "s://users/{id}", ttlMs = 5000, cacheScope = McpResource.CacheScope.PRIVATE)
		String user(String id) {
			return id;
		}

	}

}
