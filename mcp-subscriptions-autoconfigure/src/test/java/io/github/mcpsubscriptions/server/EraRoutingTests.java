package io.github.mcpsubscriptions.server;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every corner of the routing between the two protocol eras on one endpoint, one test per
 * row of the README's routing table: which of {@code MCP-Protocol-Version}, the
 * {@code _meta} version and {@code Mcp-Session-Id} a request carries decides how it is
 * served or refused.
 */
@SpringBootTest(classes = McpTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class EraRoutingTests {

	private static final String V2026 = "2026-07-28";

	private static final String V2025 = "2025-11-25";

	@LocalServerPort
	private int port;

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void meta2026WithHeader2025IsHeaderMismatch() throws Exception {
		HttpResponse<String> response = list(7, meta(V2026), V2025, null);
		assertError(response, 400, -32020);
		assertThat(json(response.body()).get("error").get("message").stringValue()).contains(V2025).contains(V2026);
		assertThat(json(response.body()).get("id").intValue()).isEqualTo(7);
	}

	@Test
	void meta2026WithAnOlder2025HeaderIsHeaderMismatch() throws Exception {
		assertError(list(7, meta(V2026), "2025-03-26", null), 400, -32020);
	}

	@Test
	void header2026WithMeta2025IsHeaderMismatch() throws Exception {
		assertError(list(8, meta(V2025), V2026, null), 400, -32020);
	}

	@Test
	void header2026WithMetaWithoutVersionIsInvalidParams() throws Exception {
		assertError(list(9, "{\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{}}}", V2026, null), 400,
				-32602);
	}

	@Test
	void header2026WithoutMetaIsInvalidParams() throws Exception {
		assertError(list(10, "{}", V2026, null), 400, -32602);
	}

	@Test
	void meta2026WithoutHeaderIsHeaderMismatch() throws Exception {
		assertError(list(11, meta(V2026), null, null), 400, -32020);
	}

	@Test
	void unsupportedVersionIsUnsupportedVersion() throws Exception {
		assertError(list(12, meta("1999-01-01"), "1999-01-01", null), 400, -32022);
	}

	@Test
	void unsupportedHeaderWithoutMetaIsInvalidParams() throws Exception {
		// _meta's fields are checked before the version (the suite's order).
		assertError(list(12, "{}", "1999-01-01", null), 400, -32602);
	}

	@Test
	void header2025WithoutSessionIsMissingSession() throws Exception {
		HttpResponse<String> response = list(13, "{}", V2025, null);
		assertError(response, 400, -32000);
		assertThat(json(response.body()).get("error").get("message").stringValue()).contains("Mcp-Session-Id");
	}

	@Test
	void nothingAtAllIsMissingSession() throws Exception {
		assertError(list(14, "{}", null, null), 400, -32000);
	}

	@Test
	void sessionWith2026HeaderAndMetaIsServedStatelessly() throws Exception {
		String session = this.client.initialize();
		HttpResponse<String> response = list(15, meta(V2026), V2026, session);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(json(response.body()).get("result").get("resultType").stringValue()).isEqualTo("complete");
	}

	@Test
	void sessionWithMeta2026AndHeader2025IsHeaderMismatch() throws Exception {
		String session = this.client.initialize();
		assertError(list(16, meta(V2026), V2025, session), 400, -32020);
	}

	@Test
	void sessionWithMeta2026AndNoHeaderIsHeaderMismatch() throws Exception {
		String session = this.client.initialize();
		assertError(list(17, meta(V2026), null, session), 400, -32020);
	}

	@Test
	void sessionWithHeader2026AndNoMetaIsInvalidParams() throws Exception {
		String session = this.client.initialize();
		assertError(list(18, "{}", V2026, session), 400, -32602);
	}

	@Test
	void sessionWithHeader2025IsServedInTheSession() throws Exception {
		String session = this.client.initialize();
		HttpResponse<String> response = list(19, "{}", V2025, session);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(json(response.body()).get("result").has("resultType")).as("a 2025-era result").isFalse();
	}

	@Test
	void initializeWith2025HeaderStartsASession() throws Exception {
		HttpResponse<String> response = this.client.post(this.client.initializeBody(V2025), "MCP-Protocol-Version",
				V2025);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isPresent();
	}

	@Test
	void initializeNaming2026Is404() throws Exception {
		HttpResponse<String> response = this.client.stateless("initialize", "");
		assertError(response, 404, -32601);
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
	}

	@Test
	void initializeWithMeta2026AndHeader2025IsHeaderMismatch() throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
				+ V2025 + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
				+ McpTestClient.META_2026 + "}}";
		HttpResponse<String> response = this.client.post(body, "MCP-Protocol-Version", V2025, "Mcp-Method",
				"initialize");
		assertError(response, 400, -32020);
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
	}

	/**
	 * A resources/list request with exactly the given params, version header and session.
	 */
	private HttpResponse<String> list(int id, String params, @Nullable String versionHeader, @Nullable String session)
			throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"resources/list\",\"params\":" + params + "}";
		HttpRequest.Builder builder = this.client.postRequest(body).header("Mcp-Method", "resources/list");
		if (versionHeader != null) {
			builder.header("MCP-Protocol-Version", versionHeader);
		}
		if (session != null) {
			builder.header("Mcp-Session-Id", session);
		}
		return this.client.send(builder.build());
	}

	private static String meta(String version) {
		return "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + version + "\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}}";
	}

	private static void assertError(HttpResponse<String> response, int status, int code) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(json(response.body()).get("error").get("code").intValue()).as(response.body()).isEqualTo(code);
	}

}
