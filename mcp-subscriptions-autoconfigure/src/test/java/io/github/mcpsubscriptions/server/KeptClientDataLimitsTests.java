package io.github.mcpsubscriptions.server;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static io.github.mcpsubscriptions.test.McpTestClient.META_2026;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a session or a listen stream keeps of the client's data for its whole life is
 * bounded: larger values are refused with {@code -32602} naming the limit, and nothing is
 * kept.
 */
@SpringBootTest(classes = McpTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class KeptClientDataLimitsTests {

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private ListenManager listens;

	@Test
	void capabilitiesLargerThanTheLimitAreRefusedAndNoSessionIsKept() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		int before = this.sessions.getSessionCount();
		HttpResponse<String> response = client.post(initialize(
				"{\"experimental\":{\"big\":\"" + "x".repeat(McpRequestDispatcher.MAX_CAPABILITIES_CHARS) + "\"}}",
				"{\"name\":\"test\",\"version\":\"1\"}"));
		assertInvalidParams(response, "capabilities", McpRequestDispatcher.MAX_CAPABILITIES_CHARS);
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
		assertThat(this.sessions.getSessionCount()).isEqualTo(before);
	}

	@Test
	void deeplyNestedOrManySmallCapabilitiesCountToo() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		StringBuilder many = new StringBuilder("{\"experimental\":{");
		for (int i = 0; i < 2000; i++) {
			many.append((i > 0) ? "," : "").append("\"k").append(i).append("\":[1]");
		}
		many.append("}}");
		assertInvalidParams(client.post(initialize(many.toString(), "{\"name\":\"test\"}")), "capabilities",
				McpRequestDispatcher.MAX_CAPABILITIES_CHARS);
	}

	@Test
	void clientInfoLargerThanTheLimitIsRefused() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		HttpResponse<String> response = client.post(initialize("{}", "{\"name\":\"test\",\"description\":\""
				+ "d".repeat(McpRequestDispatcher.MAX_CLIENT_INFO_CHARS) + "\"}"));
		assertInvalidParams(response, "clientInfo", McpRequestDispatcher.MAX_CLIENT_INFO_CHARS);
	}

	@Test
	void ordinaryClientDataIsKept() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		HttpResponse<String> response = client.post(initialize(
				"{\"roots\":{\"listChanged\":true},\"sampling\":{},\"experimental\":{\"a\":\""
						+ "x".repeat(McpRequestDispatcher.MAX_CAPABILITIES_CHARS - 100) + "\"}}",
				"{\"name\":\"test\",\"version\":\"1.0.0\",\"title\":\"A test client\"}"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(json(response.body()).has("result")).isTrue();
	}

	@Test
	void listenRequestIdLargerThanTheLimitIsRefusedAndNoStreamIsKept() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		String id = "\"" + "i".repeat(ListenManager.MAX_REQUEST_ID_CHARS) + "\"";
		String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"subscriptions/listen\",\"params\":"
				+ "{\"notifications\":{\"resourcesListChanged\":true}," + META_2026 + "}}";
		HttpResponse<InputStream> response = HttpClient.newHttpClient()
			.send(client.postRequest(body, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "subscriptions/listen")
				.build(), HttpResponse.BodyHandlers.ofInputStream());
		try (InputStream answer = response.body()) {
			// Refused before any stream opens: a JSON answer, not an event stream that
			// would
			// never end (reading that whole would hang the test).
			assertThat(response.headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
			assertInvalidParams(new String(answer.readAllBytes(), StandardCharsets.UTF_8), "id",
					ListenManager.MAX_REQUEST_ID_CHARS);
		}
		assertThat(this.listens.getOpenStreamCount()).isZero();
	}

	private static String initialize(String capabilities, String clientInfo) {
		return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":" + capabilities + ",\"clientInfo\":" + clientInfo + "}}";
	}

	private static void assertInvalidParams(HttpResponse<String> response, String member, int limit) {
		assertInvalidParams(response.body(), member, limit);
	}

	private static void assertInvalidParams(String body, String member, int limit) {
		JsonNode error = json(body).get("error");
		assertThat(error).as(body).isNotNull();
		assertThat(error.get("code").intValue()).isEqualTo(-32602);
		assertThat(error.get("message").stringValue()).contains("\"" + member + "\"").contains("too large");
		assertThat(error.get("data").get("limit").intValue()).isEqualTo(limit);
	}

}
