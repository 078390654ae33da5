package io.github.mcpsubscriptions.transport;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 2025-era endpoint over a real port: the happy paths, and a precise answer to every
 * kind of bad input.
 */
@SpringBootTest(classes = McpTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.endpoint.max-request-size=1KB", "mcp.endpoint.heartbeat-interval=200ms",
				"mcp.endpoint.allowed-origins=https://app.example.com", "mcp.server.name=test-server",
				"mcp.server.version=1.2.3", "mcp.server.instructions=Read the docs." })
class McpEndpointTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessionManager;

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void initializeCreatesSessionAndAnswersWithServerInfo() throws Exception {
		HttpResponse<String> response = this.client.post(this.client.initializeBody("2025-11-25"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		String sessionId = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
		// At least 128 bits of randomness, visible ASCII only.
		assertThat(sessionId).hasSizeGreaterThanOrEqualTo(22).matches("[\\x21-\\x7E]+");
		JsonNode body = json(response.body());
		assertThat(body.get("jsonrpc").stringValue()).isEqualTo("2.0");
		assertThat(body.get("id").intValue()).isEqualTo(0);
		JsonNode result = body.get("result");
		assertThat(result.get("protocolVersion").stringValue()).isEqualTo("2025-11-25");
		assertThat(result.get("serverInfo").get("name").stringValue()).isEqualTo("test-server");
		assertThat(result.get("serverInfo").get("version").stringValue()).isEqualTo("1.2.3");
		assertThat(result.get("instructions").stringValue()).isEqualTo("Read the docs.");
		assertThat(result.get("capabilities").has("logging")).isTrue();
		assertThat(result.get("capabilities").has("completions")).isTrue();
	}

	@Test
	void sessionIdsAreUnique() throws Exception {
		assertThat(this.client.initialize()).isNotEqualTo(this.client.initialize());
	}

	@ParameterizedTest
	@ValueSource(strings = { "2025-11-25", "2025-06-18", "2025-03-26" })
	void initializeEchoesSupportedVersion(String version) throws Exception {
		JsonNode result = json(this.client.post(this.client.initializeBody(version)).body()).get("result");
		assertThat(result.get("protocolVersion").stringValue()).isEqualTo(version);
	}

	@ParameterizedTest
	@ValueSource(strings = { "1999-01-01", "2024-11-05", "2099-01-01" })
	void initializeAnswersLatestForUnsupportedVersion(String version) throws Exception {
		JsonNode result = json(this.client.post(this.client.initializeBody(version)).body()).get("result");
		assertThat(result.get("protocolVersion").stringValue()).isEqualTo("2025-11-25");
	}

	@Test
	void initializedNotificationIsAccepted() throws Exception {
		String sessionId = this.client.initialize();
		HttpResponse<String> response = this.client
			.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", "Mcp-Session-Id", sessionId);
		assertThat(response.statusCode()).isEqualTo(202);
		assertThat(response.body()).isEmpty();
	}

	@Test
	void clientResponseIsAccepted() throws Exception {
		String sessionId = this.client.initialize();
		HttpResponse<String> response = this.client.post("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{}}",
				"Mcp-Session-Id", sessionId);
		assertThat(response.statusCode()).isEqualTo(202);
	}

	@Test
	void pingAnswersEmptyResult() throws Exception {
		String sessionId = this.client.initialize();
		HttpResponse<String> response = this.client.post("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"ping\"}",
				"Mcp-Session-Id", sessionId);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(json(response.body())).isEqualTo(json("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"result\":{}}"));
	}

	@Test
	void setLevelAnswersEmptyResult() throws Exception {
		String sessionId = this.client.initialize();
		JsonNode body = json(this.client.call(sessionId, "logging/setLevel", "{\"level\":\"info\"}").body());
		assertThat(body.get("result").isEmpty()).isTrue();
	}

	@Test
	void setLevelRejectsUnknownLevel() throws Exception {
		String sessionId = this.client.initialize();
		assertError(this.client.call(sessionId, "logging/setLevel", "{\"level\":\"loud\"}"), 200, -32602);
	}

	@Test
	void completionForUnknownReferenceIsEmpty() throws Exception {
		String sessionId = this.client.initialize();
		JsonNode body = json(this.client
			.call(sessionId, "completion/complete",
					"{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},"
							+ "\"argument\":{\"name\":\"arg1\",\"value\":\"test\"}}")
			.body());
		JsonNode completion = body.get("result").get("completion");
		assertThat(completion.get("values").isArray()).isTrue();
		assertThat(completion.get("values").isEmpty()).isTrue();
		assertThat(completion.get("hasMore").booleanValue()).isFalse();
	}

	@Test
	void completionWithoutArgumentIsInvalidParams() throws Exception {
		String sessionId = this.client.initialize();
		assertError(this.client.call(sessionId, "completion/complete",
				"{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"x\"}}"), 200, -32602);
	}

	@Test
	void unknownMethodIsMethodNotFound() throws Exception {
		String sessionId = this.client.initialize();
		JsonNode body = assertError(this.client.call(sessionId, "tools/list", null), 200, -32601);
		assertThat(body.get("id").isNumber()).isTrue();
	}

	@Test
	void malformedJsonIsParseError() throws Exception {
		String sessionId = this.client.initialize();
		JsonNode body = assertError(this.client.post("{\"jsonrpc\":\"2.0\",", "Mcp-Session-Id", sessionId), 400,
				-32700);
		assertThat(body.get("id").isNull()).isTrue();
	}

	@Test
	void trailingGarbageIsParseError() throws Exception {
		assertError(this.client.post(this.client.initializeBody("2025-11-25") + " x"), 400, -32700);
	}

	@Test
	void emptyBodyIsParseError() throws Exception {
		assertError(this.client.post(""), 400, -32700);
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", "{\"id\":1,\"method\":\"ping\"}",
			"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
			"{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
			"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
			"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":\"x\"}", "{\"jsonrpc\":\"2.0\"}", "42",
			"\"ping\"", "null" })
	void invalidMessageIsInvalidRequest(String message) throws Exception {
		String sessionId = this.client.initialize();
		assertError(this.client.post(message, "Mcp-Session-Id", sessionId), 400, -32600);
	}

	@Test
	void invalidRequestEchoesReadableId() throws Exception {
		String sessionId = this.client.initialize();
		JsonNode body = assertError(
				this.client.post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":42}", "Mcp-Session-Id", sessionId), 400,
				-32600);
		assertThat(body.get("id").intValue()).isEqualTo(7);
	}

	@Test
	void positionalParamsAreInvalidParams() throws Exception {
		String sessionId = this.client.initialize();
		assertError(this.client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[1]}",
				"Mcp-Session-Id", sessionId), 200, -32602);
	}

	@ParameterizedTest
	@ValueSource(strings = { "{}", "{\"protocolVersion\":1,\"capabilities\":{},\"clientInfo\":{\"name\":\"x\"}}",
			"{\"protocolVersion\":\"2025-11-25\",\"clientInfo\":{\"name\":\"x\"}}",
			"{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":\"x\"}",
			"{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{}}" })
	void initializeWithBadParamsIsInvalidParamsAndCreatesNoSession(String params) throws Exception {
		int before = this.sessionManager.getSessionCount();
		HttpResponse<String> response = this.client
			.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":" + params + "}");
		assertError(response, 200, -32602);
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
		assertThat(this.sessionManager.getSessionCount()).isEqualTo(before);
	}

	@Test
	void bodyOverLimitIsPayloadTooLarge() throws Exception {
		String sessionId = this.client.initialize();
		String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(2048)
				+ "\"}}";
		assertError(this.client.post(big, "Mcp-Session-Id", sessionId), 413, -32600);
	}

	@Test
	void chunkedBodyOverLimitIsPayloadTooLarge() throws Exception {
		String big = "{\"pad\":\"" + "x".repeat(4096) + "\"}";
		HttpRequest request = this.client.postRequest("")
			.POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes())))
			.build();
		assertError(this.client.send(request), 413, -32600);
	}

	@ParameterizedTest
	@ValueSource(strings = { "text/plain", "application/x-www-form-urlencoded", "not a type" })
	void wrongContentTypeIsUnsupportedMediaType(String contentType) throws Exception {
		assertError(this.client.post(this.client.initializeBody("2025-11-25"), "Content-Type", contentType), 415,
				-32000);
	}

	@Test
	void jsonWithCharsetIsAccepted() throws Exception {
		HttpResponse<String> response = this.client.post(this.client.initializeBody("2025-11-25"), "Content-Type",
				"application/json; charset=utf-8");
		assertThat(response.statusCode()).isEqualTo(200);
	}

	@ParameterizedTest
	@ValueSource(strings = { "application/json", "text/event-stream", "*/*", "text/html" })
	void postAcceptMissingATypeIsNotAcceptable(String accept) throws Exception {
		assertError(this.client.post(this.client.initializeBody("2025-11-25"), "Accept", accept), 406, -32000);
	}

	@Test
	void getWithoutEventStreamAcceptIsNotAcceptable() throws Exception {
		String sessionId = this.client.initialize();
		HttpResponse<String> response = this.client.send(HttpRequest.newBuilder(this.client.endpoint())
			.GET()
			.header("Accept", "application/json")
			.header("Mcp-Session-Id", sessionId)
			.build());
		assertError(response, 406, -32000);
	}

	@Test
	void requestWithoutSessionIsBadRequest() throws Exception {
		assertError(this.client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"), 400, -32000);
		assertError(this.client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), 400, -32000);
		HttpResponse<String> get = this.client
			.send(HttpRequest.newBuilder(this.client.endpoint()).GET().header("Accept", "text/event-stream").build());
		assertError(get, 400, -32000);
		assertError(this.client.send(HttpRequest.newBuilder(this.client.endpoint()).DELETE().build()), 400, -32000);
	}

	@Test
	void unknownSessionIsNotFound() throws Exception {
		assertError(this.client.call("no-such-session", "ping", null), 404, -32001);
		try (SseStream stream = this.client.openStream("no-such-session")) {
			assertThat(stream.response().statusCode()).isEqualTo(404);
		}
		assertError(this.client.delete("no-such-session"), 404, -32001);
	}

	@Test
	void deleteEndsSession() throws Exception {
		String sessionId = this.client.initialize();
		try (SseStream stream = this.client.openStream(sessionId)) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			assertThat(this.client.delete(sessionId).statusCode()).isEqualTo(204);
			assertThat(stream.awaitEnd(WAIT)).as("the session's stream closes").isTrue();
		}
		assertError(this.client.call(sessionId, "ping", null), 404, -32001);
		try (SseStream stream = this.client.openStream(sessionId)) {
			assertThat(stream.response().statusCode()).isEqualTo(404);
		}
		assertError(this.client.delete(sessionId), 404, -32001);
	}

	@Test
	void initializeWithSessionHeaderIsInvalidRequest() throws Exception {
		String sessionId = this.client.initialize();
		assertError(this.client.post(this.client.initializeBody("2025-11-25"), "Mcp-Session-Id", sessionId), 400,
				-32600);
	}

	@Test
	void unsupportedProtocolVersionHeaderIsBadRequest() throws Exception {
		String sessionId = this.client.initialize();
		HttpResponse<String> response = this.client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
				"Mcp-Session-Id", sessionId, "MCP-Protocol-Version", "1999-01-01");
		JsonNode body = assertError(response, 400, -32000);
		assertThat(body.get("error").get("message").stringValue()).contains("1999-01-01", "2025-11-25");
		try (SseStream stream = this.client.openStream(sessionId, "MCP-Protocol-Version", "1999-01-01")) {
			assertThat(stream.response().statusCode()).isEqualTo(400);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "2025-11-25", "2025-06-18", "2025-03-26" })
	void anySupportedProtocolVersionHeaderIsAccepted(String version) throws Exception {
		String sessionId = this.client.initialize("2025-11-25");
		HttpResponse<String> response = this.client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
				"Mcp-Session-Id", sessionId, "MCP-Protocol-Version", version);
		assertThat(response.statusCode()).isEqualTo(200);
	}

	@Test
	void foreignOriginIsForbidden() throws Exception {
		HttpResponse<String> response = this.client.post(this.client.initializeBody("2025-11-25"), "Origin",
				"http://evil.example.com");
		assertError(response, 403, -32000);
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
	}

	@Test
	void nullOriginIsForbidden() throws Exception {
		assertError(this.client.post(this.client.initializeBody("2025-11-25"), "Origin", "null"), 403, -32000);
	}

	@Test
	void foreignHostIsForbidden() throws Exception {
		HttpResponse<String> response = this.client.post(this.client.initializeBody("2025-11-25"), "Host",
				"evil.example.com", "Origin", "http://evil.example.com");
		assertError(response, 403, -32000);
		assertError(this.client.post(this.client.initializeBody("2025-11-25"), "Host", "evil.example.com:" + this.port),
				403, -32000);
	}

	@ParameterizedTest
	@ValueSource(strings = { "http://localhost", "http://localhost:{port}", "http://127.0.0.1:{port}",
			"http://[::1]:{port}", "https://app.example.com" })
	void loopbackAndConfiguredOriginsAreAllowed(String origin) throws Exception {
		HttpResponse<String> response = this.client.post(this.client.initializeBody("2025-11-25"), "Origin",
				origin.replace("{port}", String.valueOf(this.port)));
		assertThat(response.statusCode()).isEqualTo(200);
	}

	@ParameterizedTest
	@ValueSource(strings = { "localhost", "127.0.0.1", "[::1]" })
	void loopbackHostsAreAllowed(String host) throws Exception {
		HttpResponse<String> response = this.client.post(this.client.initializeBody("2025-11-25"), "Host",
				host + ":" + this.port);
		assertThat(response.statusCode()).isEqualTo(200);
	}

	@Test
	void otherHttpMethodIsNotAllowed() throws Exception {
		HttpResponse<String> response = this.client.send(HttpRequest.newBuilder(this.client.endpoint())
			.PUT(HttpRequest.BodyPublishers.ofString("{}"))
			.header("Content-Type", "application/json")
			.build());
		assertError(response, 405, -32000);
		assertThat(response.headers().firstValue("Allow")).hasValue("GET, POST, DELETE");
	}

	@Test
	void batchInOldSessionIsAnsweredAsArray() throws Exception {
		String sessionId = this.client.initialize("2025-03-26");
		HttpResponse<String> response = this.client.post(
				"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
						+ "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
						+ "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}," + "{\"jsonrpc\":\"1.0\",\"id\":3}]",
				"Mcp-Session-Id", sessionId);
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = json(response.body());
		assertThat(body.isArray()).isTrue();
		assertThat(body.size()).isEqualTo(3);
		assertThat(body.get(0).get("result").isEmpty()).isTrue();
		assertThat(body.get(1).get("error").get("code").intValue()).isEqualTo(-32601);
		assertThat(body.get(2).get("error").get("code").intValue()).isEqualTo(-32600);
		assertThat(body.get(2).get("id").intValue()).isEqualTo(3);
	}

	@Test
	void batchOfNotificationsIsAccepted() throws Exception {
		String sessionId = this.client.initialize("2025-03-26");
		HttpResponse<String> response = this.client
			.post("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]", "Mcp-Session-Id", sessionId);
		assertThat(response.statusCode()).isEqualTo(202);
	}

	@Test
	void batchWithInitializeAnswersErrorForIt() throws Exception {
		String sessionId = this.client.initialize("2025-03-26");
		JsonNode body = json(
				this.client.post("[" + this.client.initializeBody("2025-03-26") + "]", "Mcp-Session-Id", sessionId)
					.body());
		assertThat(body.get(0).get("error").get("code").intValue()).isEqualTo(-32600);
	}

	@ParameterizedTest
	@ValueSource(strings = { "2025-11-25", "2025-06-18" })
	void batchInNewerSessionIsInvalidRequest(String version) throws Exception {
		String sessionId = this.client.initialize(version);
		assertError(
				this.client.post("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", "Mcp-Session-Id", sessionId),
				400, -32600);
	}

	@Test
	void batchWithoutSessionIsInvalidRequest() throws Exception {
		assertError(this.client.post("[" + this.client.initializeBody("2025-03-26") + "]"), 400, -32600);
	}

	@Test
	void emptyBatchIsInvalidRequest() throws Exception {
		String sessionId = this.client.initialize("2025-03-26");
		assertError(this.client.post("[]", "Mcp-Session-Id", sessionId), 400, -32600);
	}

	@Test
	void getOpensEventStreamWithHeartbeats() throws Exception {
		String sessionId = this.client.initialize();
		try (SseStream stream = this.client.openStream(sessionId)) {
			HttpResponse<?> response = stream.response();
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
			assertThat(response.headers().firstValue("Cache-Control"))
				.hasValueSatisfying((value) -> assertThat(value).contains("no-cache"));
			assertThat(response.headers().firstValue("X-Accel-Buffering")).hasValue("no");
			SseEvent opened = stream.next(WAIT);
			assertThat(opened).as("the stream opens with a comment that commits the headers").isNotNull();
			assertThat(opened.isComment()).isTrue();
			SseEvent heartbeat = stream.next(WAIT, (event) -> "heartbeat".equals(event.comment()));
			assertThat(heartbeat).as("periodic heartbeat comments follow").isNotNull();
		}
	}

	@Test
	void primingEventNeverCarriesRetry() throws Exception {
		String sessionId = this.client.initialize("2025-11-25");
		try (SseStream stream = this.client.openStream(sessionId)) {
			SseEvent priming = stream.next(WAIT, (event) -> event.id() != null);
			assertThat(priming).isNotNull();
			assertThat(priming.data()).isEmpty();
			// The MCP Java SDK 2.0.x client (Spring AI 2.0.1) drops a stream whose first
			// event has one.
			assertThat(priming.retry()).as("retry belongs before the server ends the stream").isNull();
		}
	}

	@Test
	void secondGetReplacesFirstStream() throws Exception {
		String sessionId = this.client.initialize();
		try (SseStream first = this.client.openStream(sessionId)) {
			assertThat(first.response().statusCode()).isEqualTo(200);
			try (SseStream second = this.client.openStream(sessionId)) {
				assertThat(second.response().statusCode()).isEqualTo(200);
				assertThat(first.awaitEnd(WAIT)).as("the replaced stream ends").isTrue();
				assertThat(second.next(WAIT, (event) -> "heartbeat".equals(event.comment()))).as("the new stream lives")
					.isNotNull();
			}
		}
	}

	@Test
	void errorBodiesNeverCarryStackTraces() throws Exception {
		HttpResponse<String> response = this.client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
				+ "\"params\":{\"protocolVersion\":[],\"capabilities\":{},\"clientInfo\":{\"name\":\"x\"}}}");
		assertThat(response.body()).doesNotContain("Exception", "\tat ", "io.github", "tools.jackson");
	}

	private static JsonNode assertError(HttpResponse<String> response, int status, int code) {
		assertThat(response.statusCode()).as("HTTP status of %s", response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		JsonNode body = json(response.body());
		assertThat(body.get("jsonrpc").stringValue()).isEqualTo("2.0");
		assertThat(body.has("id")).as("an error response always has an id member").isTrue();
		assertThat(body.get("error").get("code").intValue()).isEqualTo(code);
		assertThat(body.get("error").get("message").stringValue()).isNotBlank();
		assertThat(body.has("result")).isFalse();
		return body;
	}

}
