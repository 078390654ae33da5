package io.github.mcpsubscriptions.tester;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A client for tests that speaks MCP to a running server over a real port, in both
 * protocol eras: {@link #session()} is a 2025-era session, {@link #listen(String...)},
 * {@link #read(String)}, {@link #listResources()} and {@link #callTool(String, Map)} are
 * 2026-era (stateless) requests.
 * <p>
 * Inject it in a {@code @SpringBootTest(webEnvironment = RANDOM_PORT)} test annotated
 * with {@link AutoConfigureMcpTester}, or create one with {@link #forUrl(String)} for any
 * server (any node of a cluster). A tester is immutable: the {@code with…} methods return
 * a copy. By default it declares the correlation capability
 * ({@link #withCorrelation(boolean)}) and waits {@value #DEFAULT_TIMEOUT_SECONDS} seconds
 * for a notification or an answer ({@link #withTimeout(Duration)}).
 * <p>
 * A tester holds an HTTP client with threads and connections of its own: {@link #close()}
 * it when done (the tester of {@link AutoConfigureMcpTester} is closed with the test's
 * application context). Closing it ends the sessions and listen streams still open
 * through it and its copies, and stops its threads; on JDK 21 and later it also closes
 * the client's connections (on JDK 17 the idle ones go when the client is collected). A
 * copy shares its tester's client: closing a copy ends only what was opened through the
 * copy.
 *
 * @since 0.1.0
 */
public final class McpTester implements AutoCloseable {

	/** The default time to wait for a notification or an answer. */
	public static final int DEFAULT_TIMEOUT_SECONDS = 10;

	/** The 2025-era revision {@link #session()} asks for. */
	public static final String SESSION_PROTOCOL_VERSION = "2025-11-25";

	/** The 2026-era revision of stateless requests and listen streams. */
	public static final String STATELESS_PROTOCOL_VERSION = "2026-07-28";

	static final String CORRELATION = "io.github.mcpsubscriptions/correlation";

	static final JsonMapper json = JsonMapper.builder().build();

	private static final AtomicInteger NUMBERS = new AtomicInteger();

	private final Client client;

	/** Whether this tester created the client (rather than being a copy). */
	private final boolean owner;

	private final Supplier<URI> endpoint;

	private final AtomicLong ids;

	private final @Nullable String bearerToken;

	private final boolean correlation;

	private final Duration timeout;

	private McpTester(Client client, boolean owner, Supplier<URI> endpoint, AtomicLong ids,
			@Nullable String bearerToken, boolean correlation, Duration timeout) {
		this.client = client;
		this.owner = owner;
		this.endpoint = endpoint;
		this.ids = ids;
		this.bearerToken = bearerToken;
		this.correlation = correlation;
		this.timeout = timeout;
	}

	/**
	 * A tester for the MCP endpoint at a URL.
	 * @param url the endpoint, such as {@code http://localhost:8080/mcp}
	 * @return the tester
	 */
	public static McpTester forUrl(String url) {
		URI uri = URI.create(url);
		return forEndpoint(() -> uri);
	}

	/**
	 * A tester whose endpoint is found when it is first used: a test's server port is
	 * known only once the server has started.
	 * @param endpoint supplies the endpoint
	 * @return the tester
	 */
	static McpTester forEndpoint(Supplier<URI> endpoint) {
		return new McpTester(new Client("mcp-tester-" + NUMBERS.incrementAndGet() + "-"), true, endpoint,
				new AtomicLong(), null, true, Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS));
	}

	/**
	 * A copy that sends {@code Authorization: Bearer <token>} with every request, for
	 * secured endpoints and per-principal rules.
	 * @param token the token, or {@code null} for none
	 * @return the copy
	 */
	public McpTester withBearerToken(@Nullable String token) {
		return new McpTester(this.client, false, this.endpoint, this.ids, token, this.correlation, this.timeout);
	}

	/**
	 * A copy that declares the correlation capability
	 * ({@code io.github.mcpsubscriptions/correlation}) or not. A correlating client gets
	 * one notification per matching subscription; any other client (such as the official
	 * SDKs) one per change.
	 * @param correlation whether to declare it (the default is {@code true})
	 * @return the copy
	 */
	public McpTester withCorrelation(boolean correlation) {
		return new McpTester(this.client, false, this.endpoint, this.ids, this.bearerToken, correlation, this.timeout);
	}

	/**
	 * A copy that waits this long for a notification
	 * ({@link McpSubscription#awaitNotification()}) and for the answer to a request.
	 * @param timeout the time to wait
	 * @return the copy
	 */
	public McpTester withTimeout(Duration timeout) {
		return new McpTester(this.client, false, this.endpoint, this.ids, this.bearerToken, this.correlation, timeout);
	}

	/**
	 * The MCP endpoint this tester talks to.
	 * @return the endpoint's URI
	 */
	public URI endpoint() {
		return this.endpoint.get();
	}

	/**
	 * Opens a 2025-era session ({@value #SESSION_PROTOCOL_VERSION}): {@code initialize},
	 * {@code notifications/initialized}, then the session's GET stream. Close it to end
	 * the session ({@code DELETE}).
	 * @return the session
	 */
	public McpSession session() {
		return session(SESSION_PROTOCOL_VERSION);
	}

	/**
	 * Opens a 2025-era session that asks for a revision.
	 * @param protocolVersion the revision, such as {@code 2025-06-18}
	 * @return the session
	 */
	public McpSession session(String protocolVersion) {
		checkOpen();
		return McpSession.open(this, protocolVersion);
	}

	/**
	 * Opens a 2026-era {@code subscriptions/listen} stream on resources (exact URIs,
	 * collections, templates or {@code ?pattern=} globs) and waits for the server's
	 * acknowledgement. Close it to stop listening.
	 * @param uris the URIs to be told about
	 * @return the stream as a subscription
	 */
	public McpSubscription listen(String... uris) {
		checkOpen();
		return ListenStream.open(this, uris);
	}

	/**
	 * Reads a resource with a stateless (2026-era) request.
	 * @param uri the resource
	 * @return the result
	 * @throws McpErrorException if the server answers with an error, such as
	 * {@code -32602} for a resource that does not exist
	 */
	public McpResult read(String uri) {
		ObjectNode params = json.createObjectNode().put("uri", uri);
		return new McpResult(stateless("resources/read", params, uri));
	}

	/**
	 * Lists the resources with a stateless (2026-era) request.
	 * @return the result; {@link McpResult#uris()} lists the URIs
	 */
	public McpResult listResources() {
		return new McpResult(stateless("resources/list", json.createObjectNode(), null));
	}

	/**
	 * Calls a tool with a stateless (2026-era) request.
	 * @param name the tool
	 * @param arguments its arguments
	 * @return the result
	 */
	public McpResult callTool(String name, Map<String, ?> arguments) {
		ObjectNode params = json.createObjectNode().put("name", name);
		params.set("arguments", json.valueToTree(arguments));
		return new McpResult(stateless("tools/call", params, name));
	}

	/**
	 * Starts polling an event type of the Events extension (draft SEP-3415) with a
	 * stateless (2026-era) {@code events/poll}: from now, so that
	 * {@link McpEventPoll#next()} returns what arrives after this call.
	 * @param name the event type, such as {@code resource.updated}
	 * @param arguments its arguments
	 * @return the poll
	 * @throws McpErrorException if the server answers with an error, such as
	 * {@code -32601} when the extension is off
	 */
	public McpEventPoll pollEvents(String name, Map<String, ?> arguments) {
		return new McpEventPoll(this, name, arguments);
	}

	/**
	 * Opens a push stream of an event type of the Events extension (draft SEP-3415), a
	 * stateless (2026-era) {@code events/stream}, from now, and waits for its
	 * {@code notifications/events/active}: {@link McpEventStream#next()} returns what
	 * arrives after this call. Close it to cancel the subscription.
	 * @param name the event type
	 * @param arguments its arguments
	 * @return the stream
	 * @throws McpErrorException if the server answers with an error, such as
	 * {@code -32601} when the extension is off or {@code -32026} for a type without push
	 */
	public McpEventStream streamEvents(String name, Map<String, ?> arguments) {
		return streamEvents(name, arguments, null);
	}

	/**
	 * Opens a push stream of an event type that resumes from a cursor (of a poll or of an
	 * earlier stream), and waits for its {@code notifications/events/active}.
	 * @param name the event type
	 * @param arguments its arguments
	 * @param cursor where to resume, or {@code null} for now
	 * @return the stream
	 * @throws McpErrorException if the server answers with an error
	 */
	public McpEventStream streamEvents(String name, Map<String, ?> arguments, @Nullable String cursor) {
		checkOpen();
		return McpEventStream.open(this, name, arguments, cursor);
	}

	JsonNode stateless(String method, ObjectNode params, @Nullable String name) {
		checkOpen();
		long id = nextId();
		HttpResponse<String> response = send(statelessRequest(method, id, params, name).build(),
				HttpResponse.BodyHandlers.ofString(), method);
		return result(method, id, response);
	}

	HttpRequest.Builder statelessRequest(String method, @Nullable Object id, ObjectNode params, @Nullable String name) {
		ObjectNode meta = params.putObject("_meta");
		meta.put("io.modelcontextprotocol/protocolVersion", STATELESS_PROTOCOL_VERSION);
		meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "mcp-tester").put("version", "1");
		ObjectNode capabilities = meta.putObject("io.modelcontextprotocol/clientCapabilities");
		if (this.correlation) {
			capabilities.putObject("extensions").putObject(CORRELATION);
		}
		HttpRequest.Builder builder = post(message(method, id, params))
			.header("MCP-Protocol-Version", STATELESS_PROTOCOL_VERSION)
			.header("Mcp-Method", method);
		if (name != null) {
			builder.header("Mcp-Name", headerValue(name));
		}
		return builder;
	}

	private static String headerValue(String value) {
		boolean plain = value.chars().allMatch((c) -> c >= 0x20 && c < 0x7f);
		return plain ? value
				: "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
	}

	boolean correlation() {
		return this.correlation;
	}

	Duration timeout() {
		return this.timeout;
	}

	long nextId() {
		return this.ids.incrementAndGet();
	}

	static ObjectNode message(String method, @Nullable Object id, @Nullable ObjectNode params) {
		ObjectNode message = json.createObjectNode().put("jsonrpc", "2.0");
		if (id instanceof Long number) {
			message.put("id", number);
		}
		else if (id != null) {
			message.put("id", id.toString());
		}
		message.put("method", method);
		if (params != null) {
			message.set("params", params);
		}
		return message;
	}

	HttpRequest.Builder request() {
		HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint()).timeout(this.timeout);
		if (this.bearerToken != null) {
			builder.header("Authorization", "Bearer " + this.bearerToken);
		}
		return builder;
	}

	HttpRequest.Builder post(ObjectNode message) {
		return request().POST(HttpRequest.BodyPublishers.ofString(message.toString()))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream");
	}

	<T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler, String what) {
		HttpClient http = this.client.http;
		if (http == null) {
			throw new IllegalStateException("Cannot send " + what + ": this McpTester is closed");
		}
		try {
			return http.send(request, handler);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(what + " to " + request.uri() + " failed: " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while sending " + what, ex);
		}
	}

	/**
	 * Ends every session and listen stream still open through this tester (and, for a
	 * tester made by {@link #forUrl(String)}, through its copies), then, unless this is a
	 * copy, stops the HTTP client: its threads end, and on JDK 21 and later its
	 * connections close. A session that cannot be ended (the server has stopped already)
	 * is left to the server. Closing twice does nothing more.
	 */
	@Override
	public void close() {
		if (!this.owner) {
			this.client.closeOpened(this);
			return;
		}
		if (this.client.closed.compareAndSet(false, true)) {
			this.client.closeOpened(null);
			this.client.release();
		}
	}

	/**
	 * Whether this tester's client has been closed.
	 * @return {@code true} once the tester that made it is closed
	 */
	boolean isClosed() {
		return this.client.closed.get();
	}

	private void checkOpen() {
		if (isClosed()) {
			throw new IllegalStateException("This McpTester is closed");
		}
	}

	/**
	 * The prefix of the names of this tester's threads (its client's and its stream
	 * readers').
	 * @return the prefix
	 */
	String threadNamePrefix() {
		return this.client.threadNamePrefix;
	}

	/**
	 * A session or listen stream opened through this tester, for {@link #close()} to end.
	 * @param key what {@link #closed(Object)} is told when it ends
	 * @param resource ends it
	 */
	void opened(Object key, AutoCloseable resource) {
		this.client.opened.put(key, new Opened(this, resource));
	}

	/**
	 * A session or listen stream ended: {@link #close()} has nothing to do for it.
	 * @param key as given to {@link #opened(Object, AutoCloseable)}
	 */
	void closed(Object key) {
		this.client.opened.remove(key);
	}

	/**
	 * The result of a request, from a JSON answer or from the answer on an SSE response.
	 */
	static JsonNode result(String method, Object id, HttpResponse<String> response) {
		return result(method, id, response.statusCode(), response.headers(), response.body());
	}

	static JsonNode result(String method, Object id, int status, HttpHeaders headers, String body) {
		JsonNode answer = answer(id, headers, body);
		if (answer != null && answer.has("error")) {
			JsonNode error = answer.get("error");
			JsonNode data = error.get("data");
			throw new McpErrorException(method, error.path("code").asInt(), error.path("message").asString(""),
					(data != null && !data.isNull()) ? data : null, status);
		}
		if (status / 100 != 2 || answer == null || !answer.has("result")) {
			throw new McpHttpException(method, status, body, headers);
		}
		return answer.get("result");
	}

	private static @Nullable JsonNode answer(Object id, HttpHeaders headers, String body) {
		if (!isEventStream(headers)) {
			return parse(body);
		}
		for (String data : SseReader.readAll(body)) {
			JsonNode message = parse(data);
			if (message != null && message.has("id") && message.get("id").asString().equals(id.toString())) {
				return message;
			}
		}
		return null;
	}

	static boolean isEventStream(HttpHeaders headers) {
		return headers.firstValue("Content-Type").map((type) -> type.startsWith("text/event-stream")).orElse(false);
	}

	static @Nullable JsonNode parse(String text) {
		try {
			JsonNode node = json.readTree(text);
			return (node != null && node.isObject()) ? node : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	static String readBody(HttpResponse<InputStream> response) {
		try (InputStream body = response.body()) {
			return new String(body.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "";
		}
	}

	static void closeQuietly(@Nullable HttpResponse<InputStream> response) {
		if (response != null) {
			try {
				response.body().close();
			}
			catch (IOException ex) {
				// Closing a stream that has failed has nothing left to do.
			}
		}
	}

	static String abbreviate(String text) {
		return (text.length() <= 400) ? text : text.substring(0, 400) + "…";
	}

	private record Opened(McpTester by, AutoCloseable resource) {
	}

	/**
	 * What a tester and its copies share: the HTTP client, the threads it runs on, and
	 * what was opened through them.
	 */
	private static final class Client {

		final String threadNamePrefix;

		final ExecutorService executor;

		/**
		 * The client until it is released: on JDK 17 its selector thread and idle
		 * connections go once it is collected, which a tester the test still holds must
		 * not prevent.
		 */
		volatile @Nullable HttpClient http;

		final Map<Object, Opened> opened = new ConcurrentHashMap<>();

		final AtomicBoolean closed = new AtomicBoolean();

		Client(String threadNamePrefix) {
			this.threadNamePrefix = threadNamePrefix;
			AtomicInteger threads = new AtomicInteger();
			// Threads of its own, by name: on JDK 17 a client cannot be closed, but the
			// threads it runs its work on can be stopped.
			this.executor = Executors.newCachedThreadPool((task) -> {
				Thread thread = new Thread(task, threadNamePrefix + "http-" + threads.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});
			// HTTP/1.1: the JDK client would otherwise try an HTTP/2 upgrade on every
			// plain
			// request.
			this.http = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(Duration.ofSeconds(5))
				.executor(this.executor)
				.build();
		}

		/**
		 * End what was opened through one tester, or through every tester of this client.
		 */
		void closeOpened(@Nullable McpTester by) {
			for (Map.Entry<Object, Opened> entry : List.copyOf(this.opened.entrySet())) {
				Opened opened = entry.getValue();
				if (by != null && opened.by() != by) {
					continue;
				}
				this.opened.remove(entry.getKey());
				try {
					opened.resource().close();
				}
				catch (Exception ex) {
					// The server has stopped or ended it already: it has nothing left to
					// end.
				}
			}
		}

		void release() {
			HttpClient http = this.http;
			this.http = null;
			// HttpClient is AutoCloseable from JDK 21: closing it closes its connections.
			if (http instanceof AutoCloseable closeable) {
				try {
					closeable.close();
				}
				catch (Exception ex) {
					// Closing is all that was left to do with it.
				}
			}
			this.executor.shutdownNow();
		}

	}

}
