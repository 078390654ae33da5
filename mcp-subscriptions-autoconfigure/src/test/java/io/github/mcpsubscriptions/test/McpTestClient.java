package io.github.mcpsubscriptions.test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A raw MCP-over-HTTP client for tests, on the JDK {@link HttpClient}: it sends exactly
 * the bytes and headers a test asks for.
 */
public final class McpTestClient {

	public static final String ACCEPT_BOTH = "application/json, text/event-stream";

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final URI endpoint;

	private final AtomicLong ids = new AtomicLong();

	private final @Nullable String authorization;

	public McpTestClient(int port) {
		this(URI.create("http://localhost:" + port + "/mcp"));
	}

	public McpTestClient(URI endpoint) {
		this(endpoint, null);
	}

	/**
	 * A client whose every request carries an {@code Authorization} header.
	 * @param endpoint the MCP endpoint
	 * @param authorization the header's value, or {@code null} for none
	 */
	public McpTestClient(URI endpoint, @Nullable String authorization) {
		this.endpoint = endpoint;
		this.authorization = authorization;
	}

	private HttpRequest.Builder newRequest() {
		HttpRequest.Builder builder = HttpRequest.newBuilder(this.endpoint).timeout(Duration.ofSeconds(10));
		if (this.authorization != null) {
			builder.header("Authorization", this.authorization);
		}
		return builder;
	}

	public URI endpoint() {
		return this.endpoint;
	}

	/**
	 * A POST with the headers a well-behaved client sends, plus extra ones.
	 * @param body the body
	 * @param headers extra header name/value pairs
	 * @return the request builder
	 */
	public HttpRequest.Builder postRequest(String body, String... headers) {
		HttpRequest.Builder builder = newRequest().POST(HttpRequest.BodyPublishers.ofString(body));
		boolean contentType = false;
		boolean accept = false;
		for (int i = 0; i < headers.length; i += 2) {
			contentType |= headers[i].equalsIgnoreCase("Content-Type");
			accept |= headers[i].equalsIgnoreCase("Accept");
			builder.header(headers[i], headers[i + 1]);
		}
		if (!contentType) {
			builder.header("Content-Type", "application/json");
		}
		if (!accept) {
			builder.header("Accept", ACCEPT_BOTH);
		}
		return builder;
	}

	public HttpResponse<String> post(String body, String... headers) throws IOException, InterruptedException {
		return send(postRequest(body, headers).build());
	}

	public HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Call a method in a session.
	 * @param sessionId the session
	 * @param method the method
	 * @param params the params as JSON, or {@code null}
	 * @return the response
	 */
	public HttpResponse<String> call(String sessionId, String method, String params)
			throws IOException, InterruptedException {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":" + this.ids.incrementAndGet() + ",\"method\":\"" + method + "\""
				+ ((params != null) ? ",\"params\":" + params : "") + "}";
		return post(body, "Mcp-Session-Id", sessionId);
	}

	/** Client capabilities that declare the correlation extension, as most tests want. */
	public static final String CORRELATING = "{\"experimental\":{\"io.github.mcpsubscriptions/correlation\":{}}}";

	public String initializeBody(String protocolVersion) {
		return initializeBody(protocolVersion, CORRELATING);
	}

	/**
	 * An {@code initialize} request.
	 * @param protocolVersion the version to ask for
	 * @param capabilities the client capabilities, as JSON
	 * @return the request body
	 */
	public String initializeBody(String protocolVersion, String capabilities) {
		return "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
				+ protocolVersion + "\",\"capabilities\":" + capabilities
				+ ",\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";
	}

	/**
	 * Initialize a session and send {@code notifications/initialized}.
	 * @param protocolVersion the version to ask for
	 * @return the session id
	 */
	public String initialize(String protocolVersion) throws IOException, InterruptedException {
		return initialize(protocolVersion, CORRELATING);
	}

	/**
	 * Initialize a session with the given client capabilities and send
	 * {@code notifications/initialized}.
	 * @param protocolVersion the version to ask for
	 * @param capabilities the client capabilities, as JSON
	 * @return the session id
	 */
	public String initialize(String protocolVersion, String capabilities) throws IOException, InterruptedException {
		HttpResponse<String> response = post(initializeBody(protocolVersion, capabilities));
		if (response.statusCode() != 200) {
			throw new IllegalStateException("initialize failed: " + response.statusCode() + " " + response.body());
		}
		String sessionId = response.headers()
			.firstValue("Mcp-Session-Id")
			.orElseThrow(() -> new IllegalStateException("No session id"));
		HttpResponse<String> initialized = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
				"Mcp-Session-Id", sessionId);
		if (initialized.statusCode() != 202) {
			throw new IllegalStateException("initialized failed: " + initialized.statusCode());
		}
		return sessionId;
	}

	public String initialize() throws IOException, InterruptedException {
		return initialize("2025-11-25");
	}

	/**
	 * Open the session's GET stream.
	 * @param sessionId the session
	 * @param headers extra header name/value pairs
	 * @return the live stream; check {@code response().statusCode()}
	 */
	public SseStream openStream(String sessionId, String... headers) throws IOException, InterruptedException {
		HttpRequest.Builder builder = newRequest().GET()
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", sessionId);
		for (int i = 0; i < headers.length; i += 2) {
			builder.setHeader(headers[i], headers[i + 1]);
		}
		HttpResponse<InputStream> response = this.http.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
		return new SseStream(response);
	}

	public HttpResponse<String> delete(String sessionId) throws IOException, InterruptedException {
		return send(newRequest().DELETE().header("Mcp-Session-Id", sessionId).build());
	}

	/** The 2026-era {@code _meta} a well-behaved client sends. */
	public static final String META_2026 = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"test\",\"version\":\"1\"},"
			+ "\"io.modelcontextprotocol/clientCapabilities\":"
			+ "{\"extensions\":{\"io.github.mcpsubscriptions/correlation\":{}}}}";

	/** The same without declaring the correlation extension. */
	public static final String META_2026_UNCORRELATED = META_2026
		.replace("{\"extensions\":{\"io.github.mcpsubscriptions/correlation\":{}}}", "{}");

	/**
	 * A stateless (2026-era) request with the headers a well-behaved client sends.
	 * @param method the method
	 * @param params the params without {@code _meta}, as JSON members (may be empty)
	 * @param headers extra or replacing header name/value pairs
	 * @return the request builder
	 */
	public HttpRequest.Builder statelessRequest(String method, String params, String... headers) {
		return statelessRequestWithMeta(META_2026, method, params, headers);
	}

	private HttpRequest.Builder statelessRequestWithMeta(String meta, String method, String params, String... headers) {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":" + this.ids.incrementAndGet() + ",\"method\":\"" + method
				+ "\",\"params\":{" + (params.isEmpty() ? "" : params + ",") + meta + "}}";
		HttpRequest.Builder builder = postRequest(body).header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", method);
		if (method.equals("resources/read") || method.equals("tools/call")) {
			JsonNode named = json("{" + params + "}").get(method.equals("tools/call") ? "name" : "uri");
			if (named != null && named.isString()) {
				builder.header("Mcp-Name", named.stringValue());
			}
		}
		for (int i = 0; i < headers.length; i += 2) {
			builder.setHeader(headers[i], headers[i + 1]);
		}
		return builder;
	}

	public HttpResponse<String> stateless(String method, String params, String... headers)
			throws IOException, InterruptedException {
		return send(statelessRequest(method, params, headers).build());
	}

	/**
	 * Open a {@code subscriptions/listen} stream.
	 * @param notifications the filter, as JSON
	 * @return the live stream; check {@code response().statusCode()}
	 */
	public SseStream listen(String notifications) throws IOException, InterruptedException {
		return listen(META_2026, notifications);
	}

	/**
	 * Open a {@code subscriptions/listen} stream as a client that does not declare the
	 * correlation extension.
	 * @param notifications the filter, as JSON
	 * @return the live stream; check {@code response().statusCode()}
	 */
	public SseStream listenUncorrelated(String notifications) throws IOException, InterruptedException {
		return listen(META_2026_UNCORRELATED, notifications);
	}

	/**
	 * Open a {@code subscriptions/listen} stream with extra headers.
	 * @param notifications the filter, as JSON
	 * @param headers extra or replacing header name/value pairs
	 * @return the live stream; check {@code response().statusCode()}
	 */
	public SseStream listenWithHeaders(String notifications, String... headers)
			throws IOException, InterruptedException {
		return listen(META_2026, notifications, headers);
	}

	private SseStream listen(String meta, String notifications, String... headers)
			throws IOException, InterruptedException {
		HttpRequest request = statelessRequestWithMeta(meta, "subscriptions/listen",
				"\"notifications\":" + notifications, headers)
			.build();
		return new SseStream(this.http.send(request, HttpResponse.BodyHandlers.ofInputStream()));
	}

	public static JsonNode json(String body) {
		return json.readTree(body);
	}

}
