package io.github.mcpsubscriptions.tester;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A 2025-era session: opened with {@code initialize} and
 * {@code notifications/initialized}, with its GET stream open from the start;
 * {@link #close()} ends it with {@code DELETE}. Notifications on the stream go to the
 * subscription their {@code subscribedUri} names (to every subscription if the server
 * sends none).
 * <p>
 * {@link #via(McpTester)} sends the same session's requests through another tester:
 * another node of a cluster, or another bearer token (a renewed one, or another
 * principal's).
 *
 * @since 0.1.0
 */
public final class McpSession implements AutoCloseable {

	private static final String LIST_CHANGED = "notifications/resources/list_changed";

	private final McpTester tester;

	private final State state;

	private McpSession(McpTester tester, State state) {
		this.tester = tester;
		this.state = state;
	}

	static McpSession open(McpTester tester, String protocolVersion) {
		ObjectNode params = McpTester.json.createObjectNode().put("protocolVersion", protocolVersion);
		ObjectNode capabilities = params.putObject("capabilities");
		if (tester.correlation()) {
			capabilities.putObject("experimental").putObject(McpTester.CORRELATION);
		}
		params.putObject("clientInfo").put("name", "mcp-tester").put("version", "1");
		long requestId = tester.nextId();
		HttpResponse<String> response = tester.send(
				tester.post(McpTester.message("initialize", requestId, params)).build(),
				HttpResponse.BodyHandlers.ofString(), "initialize");
		JsonNode result = McpTester.result("initialize", requestId, response);
		String id = response.headers()
			.firstValue("Mcp-Session-Id")
			.orElseThrow(() -> new McpHttpException("initialize (no Mcp-Session-Id header)", response.statusCode(),
					response.body(), response.headers()));
		McpSession session = new McpSession(tester, new State(tester, id,
				result.path("protocolVersion").asString(protocolVersion), result.path("serverInfo")));
		// Ended by the tester's close(), if the test does not end it.
		tester.opened(session.state, session);
		HttpResponse<String> initialized = tester.send(
				session.withHeaders(tester.post(McpTester.message("notifications/initialized", null, null))).build(),
				HttpResponse.BodyHandlers.ofString(), "notifications/initialized");
		if (initialized.statusCode() != 202) {
			throw new McpHttpException("notifications/initialized", initialized.statusCode(), initialized.body(),
					initialized.headers());
		}
		session.openStream();
		return session;
	}

	private HttpRequest.Builder withHeaders(HttpRequest.Builder builder) {
		return builder.header("Mcp-Session-Id", this.state.id)
			.header("MCP-Protocol-Version", this.state.protocolVersion);
	}

	private void openStream() {
		HttpRequest request = withHeaders(this.tester.request().GET().header("Accept", "text/event-stream")).build();
		HttpResponse<InputStream> response = this.tester.send(request, HttpResponse.BodyHandlers.ofInputStream(),
				"the session's GET");
		if (response.statusCode() != 200) {
			throw new McpHttpException("The session's GET", response.statusCode(), McpTester.readBody(response),
					response.headers());
		}
		this.state.stream = response;
		State state = this.state;
		String thread = this.tester.threadNamePrefix() + "session-" + state.id;
		SseReader.start(response.body(), thread, state::arrived, () -> {
			// A stream replaced by reopenStream() has not ended the session's stream.
			if (state.stream == response) {
				state.log.ended();
			}
		});
	}

	/**
	 * Closes the session's GET stream and opens it again through this session's tester,
	 * as a client does after its connection dropped or its token was renewed: the server
	 * judges the deliveries from then on with the authentication of the new stream, and
	 * in a cluster the node this tester talks to holds the stream. The subscriptions stay
	 * as they are; what the server sends while no stream is open may be lost (no
	 * {@code Last-Event-ID}).
	 * @return this session
	 */
	public McpSession reopenStream() {
		HttpResponse<InputStream> previous = this.state.stream;
		// First, so that the end of the previous stream is not taken for the end of the
		// session's.
		this.state.stream = null;
		McpTester.closeQuietly(previous);
		this.state.log.reopened(Instant.now(), this.tester.endpoint());
		openStream();
		return this;
	}

	/**
	 * The same session, its requests sent through another tester: another node of a
	 * cluster (sessions need no sticky load balancer), or the same endpoint with another
	 * bearer token ({@link McpTester#withBearerToken(String)}), to test that a renewed
	 * token continues the session or that another principal's token does not find it.
	 * Subscriptions and the GET stream are the session's, whichever view made them;
	 * {@link #reopenStream()} on the view moves the stream to its tester.
	 * @param other the tester to send requests through
	 * @return a view of this session
	 */
	public McpSession via(McpTester other) {
		return new McpSession(other, this.state);
	}

	/**
	 * The session's id ({@code Mcp-Session-Id}).
	 * @return the id
	 */
	public String id() {
		return this.state.id;
	}

	/**
	 * The revision the server agreed to.
	 * @return the revision, such as {@code 2025-11-25}
	 */
	public String protocolVersion() {
		return this.state.protocolVersion;
	}

	/**
	 * The {@code serverInfo} of the server's {@code initialize} result.
	 * @return the server's name and version
	 */
	public JsonNode serverInfo() {
		return this.state.serverInfo;
	}

	/**
	 * Reads a resource.
	 * @param uri the resource
	 * @return the result
	 * @throws McpErrorException if the server answers with an error, such as
	 * {@code -32002} for a resource that does not exist
	 */
	public McpResult read(String uri) {
		return new McpResult(call("resources/read", McpTester.json.createObjectNode().put("uri", uri)));
	}

	/**
	 * Lists the resources.
	 * @return the result; {@link McpResult#uris()} lists the URIs
	 */
	public McpResult listResources() {
		return new McpResult(call("resources/list", McpTester.json.createObjectNode()));
	}

	/**
	 * Calls a tool.
	 * @param name the tool
	 * @param arguments its arguments
	 * @return the result
	 */
	public McpResult callTool(String name, Map<String, ?> arguments) {
		ObjectNode params = McpTester.json.createObjectNode().put("name", name);
		params.set("arguments", McpTester.json.valueToTree(arguments));
		return new McpResult(call("tools/call", params));
	}

	/**
	 * Subscribes to a resource (an exact URI, a collection, a template or a
	 * {@code ?pattern=} glob). Subscribing again to the same URI returns the same
	 * subscription.
	 * @param uri the URI
	 * @return the subscription; close it to unsubscribe
	 * @throws McpErrorException if the server refuses, such as {@code -32002} for a URI
	 * that covers no resource
	 */
	public McpSubscription subscribe(String uri) {
		McpSubscription subscription = this.state.subscriptions.computeIfAbsent(uri,
				(key) -> new McpSubscription("2025 session " + this.state.id, List.of(key), this.state.log,
						this.tester.timeout(), (closing) -> ended(key, closing)));
		try {
			call("resources/subscribe", McpTester.json.createObjectNode().put("uri", uri));
		}
		catch (RuntimeException ex) {
			this.state.subscriptions.remove(uri, subscription);
			throw ex;
		}
		return subscription;
	}

	/**
	 * Waits for the next {@code notifications/resources/list_changed} on the session's
	 * stream (every session hears of it), as long as the tester's timeout
	 * ({@value McpTester#DEFAULT_TIMEOUT_SECONDS} seconds unless set). One that arrived
	 * earlier and was not yet awaited counts.
	 * @throws AssertionError if none arrives in time; its message lists what did arrive
	 */
	public void awaitListChanged() {
		awaitListChanged(this.tester.timeout());
	}

	/**
	 * Waits for the next {@code notifications/resources/list_changed} on the session's
	 * stream.
	 * @param timeout how long to wait
	 * @throws AssertionError if none arrives in time; its message lists what did arrive
	 */
	public void awaitListChanged(Duration timeout) {
		Instant arrived;
		try {
			arrived = this.state.listChanges.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for a list change", ex);
		}
		if (arrived == null) {
			throw new AssertionError("Expected notifications/resources/list_changed within " + timeout
					+ ", but none came.\n" + this.state.log.describe());
		}
	}

	/**
	 * Unsubscribes from a URI.
	 * @param uri the URI as subscribed
	 */
	public void unsubscribe(String uri) {
		McpSubscription subscription = this.state.subscriptions.get(uri);
		if (subscription != null) {
			subscription.close();
		}
		else if (!this.state.closed) {
			call("resources/unsubscribe", McpTester.json.createObjectNode().put("uri", uri));
		}
	}

	private void ended(String uri, McpSubscription subscription) {
		this.state.subscriptions.remove(uri, subscription);
		if (!this.state.closed) {
			call("resources/unsubscribe", McpTester.json.createObjectNode().put("uri", uri));
		}
	}

	/**
	 * Sends a request in this session, for methods this class has no shortcut for.
	 * @param method the method
	 * @param params its params
	 * @return the result
	 * @throws McpErrorException if the server answers with an error
	 */
	public JsonNode call(String method, ObjectNode params) {
		long requestId = this.tester.nextId();
		HttpRequest request = withHeaders(this.tester.post(McpTester.message(method, requestId, params))).build();
		return McpTester.result(method, requestId,
				this.tester.send(request, HttpResponse.BodyHandlers.ofString(), method));
	}

	/**
	 * Ends the session: {@code DELETE}, then the GET stream is closed.
	 */
	@Override
	public void close() {
		if (this.state.closed) {
			return;
		}
		this.state.closed = true;
		this.state.opener.closed(this.state);
		this.state.subscriptions.values().forEach(McpSubscription::close);
		this.state.subscriptions.clear();
		try {
			HttpResponse<String> deleted = this.tester.send(withHeaders(this.tester.request().DELETE()).build(),
					HttpResponse.BodyHandlers.ofString(), "DELETE");
			// 405: the server does not let clients end sessions; 404: it has ended
			// already.
			if (deleted.statusCode() / 100 != 2 && deleted.statusCode() != 404 && deleted.statusCode() != 405) {
				throw new McpHttpException("DELETE of session " + this.state.id, deleted.statusCode(), deleted.body(),
						deleted.headers());
			}
		}
		finally {
			closeStream();
		}
	}

	private void closeStream() {
		// Best effort: the server ends the stream on DELETE anyway.
		McpTester.closeQuietly(this.state.stream);
	}

	@Override
	public String toString() {
		return "McpSession " + this.state.id + " (" + this.state.protocolVersion + ") via " + this.tester.endpoint();
	}

	/**
	 * What the views of one session share: its id, its subscriptions and its GET stream.
	 */
	private static final class State {

		final McpTester opener;

		final String id;

		final String protocolVersion;

		final JsonNode serverInfo;

		final StreamLog log;

		final Map<String, McpSubscription> subscriptions = new ConcurrentHashMap<>();

		/** When each list change arrived that nobody has awaited yet. */
		final BlockingQueue<Instant> listChanges = new LinkedBlockingQueue<>();

		volatile @Nullable HttpResponse<InputStream> stream;

		volatile boolean closed;

		State(McpTester opener, String id, String protocolVersion, JsonNode serverInfo) {
			this.opener = opener;
			this.id = id;
			this.protocolVersion = protocolVersion;
			this.serverInfo = serverInfo;
			this.log = new StreamLog("the GET stream of 2025 session " + id);
		}

		void arrived(String data) {
			Instant now = Instant.now();
			this.log.arrived(now, data);
			JsonNode message = McpTester.parse(data);
			if (message != null && LIST_CHANGED.equals(message.path("method").asString(""))) {
				this.listChanges.add(now);
				return;
			}
			McpNotification notification = (message != null) ? McpNotification.from(message, now) : null;
			if (notification == null) {
				return;
			}
			for (McpSubscription subscription : this.subscriptions.values()) {
				if (notification.subscribedUri() == null
						|| subscription.uris().contains(notification.subscribedUri())) {
					subscription.deliver(notification);
				}
			}
		}

	}

}
