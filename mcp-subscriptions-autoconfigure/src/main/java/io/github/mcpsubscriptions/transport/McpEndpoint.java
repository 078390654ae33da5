package io.github.mcpsubscriptions.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.github.mcpsubscriptions.jsonrpc.InvalidMessageException;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcError;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcMessage;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcRequest;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcResponse;
import io.github.mcpsubscriptions.notification.DeliveryScheduler;
import io.github.mcpsubscriptions.notification.MessageStream;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.server.ListenRateLimitedException;
import io.github.mcpsubscriptions.server.McpExchange;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import io.github.mcpsubscriptions.server.McpStreamedMethod;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.ProtocolVersions;
import io.github.mcpsubscriptions.session.SessionEndReason;
import io.github.mcpsubscriptions.session.SessionLimitExceededException;
import io.github.mcpsubscriptions.session.StoreUnavailableException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;

/**
 * The MCP Streamable HTTP endpoint: POST carries one JSON-RPC message (a batch for
 * 2025-03-26 sessions), GET opens the session's server-to-client SSE stream, DELETE ends
 * the session.
 * <p>
 * Every refusal is answered with a precise HTTP status and a JSON-RPC error body; the
 * handler methods write their responses themselves. A stream is written through the
 * container's non-blocking I/O ({@link AsyncSseStream}), so a client that stops reading
 * holds no thread, and every stream gets heartbeats ({@link Heartbeats}), so that a
 * client that went away without a word frees its stream within two heartbeat intervals;
 * {@link #close()} completes the streams still open when the application stops.
 *
 * @since 0.1.0
 */
@Controller
@RequestMapping("${mcp.endpoint.path:/mcp}")
public class McpEndpoint implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(McpEndpoint.class);

	private static final MediaType EVENT_STREAM = MediaType.TEXT_EVENT_STREAM;

	private static final String LISTEN = "subscriptions/listen";

	private static final String CANCELLED = "notifications/cancelled";

	private final OutageWarnings outageWarnings = new OutageWarnings(logger, 30, TimeUnit.SECONDS, System::nanoTime);

	private final McpRequestDispatcher dispatcher;

	private final McpSessionManager sessionManager;

	private final JsonRpcCodec codec;

	private final DnsRebindingProtection dnsRebindingProtection;

	private final long maxRequestSize;

	private final ListenManager listenManager;

	private final DeliveryScheduler timer;

	private final Duration closeTimeout;

	private final Set<AsyncSseStream> streams = ConcurrentHashMap.newKeySet();

	private final Heartbeats heartbeats;

	/**
	 * The heartbeats of streamed methods' streams, which write their own heartbeats: one
	 * wheel per interval (one per method in practice).
	 */
	private final Map<Duration, Heartbeats> ownHeartbeats = new ConcurrentHashMap<>();

	/**
	 * The most streams this endpoint opens: the container's connection limit less the
	 * connections kept for other requests; {@link Integer#MAX_VALUE} for no limit.
	 */
	private volatile int maxStreams = Integer.MAX_VALUE;

	/** How the limit came about, for the refusal's message. */
	private volatile String maxStreamsReason = "";

	private final AtomicLong refusedStreams = new AtomicLong();

	/**
	 * Create the endpoint.
	 * @param dispatcher handles the messages
	 * @param sessionManager finds, creates and ends sessions
	 * @param codec the wire format
	 * @param options the endpoint's settings
	 * @param listenManager serves 2026-era listen streams
	 * @param timer runs the close timeout of streams whose client does not take the rest
	 * @param closeTimeout how long a closing stream waits for its client
	 * ({@code mcp.notifications.write-timeout})
	 */
	public McpEndpoint(McpRequestDispatcher dispatcher, McpSessionManager sessionManager, JsonRpcCodec codec,
			McpEndpointOptions options, ListenManager listenManager, DeliveryScheduler timer, Duration closeTimeout) {
		this.dispatcher = dispatcher;
		this.timer = timer;
		this.closeTimeout = closeTimeout;
		this.listenManager = listenManager;
		this.sessionManager = sessionManager;
		this.codec = codec;
		this.dnsRebindingProtection = new DnsRebindingProtection(options.dnsRebindingProtection(),
				options.allowedOrigins(), options.allowedHosts());
		this.maxRequestSize = options.maxRequestSize();
		this.heartbeats = new Heartbeats(options.heartbeatInterval());
	}

	@PostMapping
	public void post(HttpServletRequest request, HttpServletResponse response) throws IOException {
		try {
			this.dnsRebindingProtection.check(request);
			checkContentType(request);
			checkPostAccept(request);
			JsonNode body = this.codec.parse(readBody(request));
			if (body.isArray()) {
				handleBatch(body, request, response);
			}
			else {
				handleSingle(this.codec.read(body), request, response);
			}
		}
		catch (McpHttpException ex) {
			writeError(response, ex.getStatus(), null, ex.getError());
		}
		catch (InvalidMessageException ex) {
			HttpStatus status = (ex.getError().code() == JsonRpcErrorCodes.INVALID_PARAMS) ? HttpStatus.OK
					: HttpStatus.BAD_REQUEST;
			writeError(response, status, ex.getId(), ex.getError());
		}
		catch (SessionLimitExceededException ex) {
			response.setHeader(HttpHeaders.RETRY_AFTER, "30");
			writeError(response, HttpStatus.SERVICE_UNAVAILABLE, null, new JsonRpcError(JsonRpcErrorCodes.SERVER_ERROR,
					ex.getMessage(), new Limit(ex.getProperty(), ex.getLimit())));
		}
		catch (RuntimeException ex) {
			internalError(response, ex);
		}
	}

	private void handleSingle(JsonRpcMessage message, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		boolean initialize = message instanceof JsonRpcRequest call && isInitialize(call);
		String sessionId = request.getHeader(McpHeaders.SESSION_ID);
		JsonNode params = (message instanceof JsonRpcRequest call) ? call.params()
				: (message instanceof JsonRpcNotification notification
						&& notification.params() instanceof JsonNode node) ? node : null;
		// initialize starts a 2025-era session, unless it names 2026-07-28 (where it no
		// longer exists).
		boolean stateless = (initialize || sessionId != null)
				? StatelessRequestValidator.namesStatelessVersion(request, params)
				: StatelessRequestValidator.isStateless(request, params);
		if (stateless) {
			handleStateless(message, request, response);
			return;
		}
		McpExchange exchange;
		if (sessionId != null) {
			if (initialize) {
				throw new McpHttpException(HttpStatus.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
						"Invalid request: initialize starts a new session and must not carry " + McpHeaders.SESSION_ID);
			}
			exchange = McpExchange.forSession(requireSession(request), principal(request));
		}
		else if (initialize) {
			exchange = McpExchange.forInitialize(principal(request));
		}
		else {
			throw missingSession();
		}
		PostResponseStream stream = new PostResponseStream(response, this.codec, acceptsStream(request));
		exchange.setNotificationSink(stream);
		JsonRpcResponse answer = this.dispatcher.dispatch(message, exchange);
		if (answer == null) {
			writeAccepted(response);
			return;
		}
		if (stream.isStarted()) {
			stream.finish(answer);
			return;
		}
		if (initialize && answer.error() == null && exchange.getSession() != null) {
			response.setHeader(McpHeaders.SESSION_ID, exchange.getSession().getId());
		}
		boolean ended = answer.error() != null && answer.error().code() == JsonRpcErrorCodes.SESSION_NOT_FOUND;
		writeJson(response, ended ? HttpStatus.NOT_FOUND : HttpStatus.OK, answer);
	}

	/**
	 * A 2026-era request: no session; headers and {@code _meta} are checked first, errors
	 * echo the request's id, a method this era does not have is a 404, and
	 * {@code subscriptions/listen} is answered with a stream.
	 */
	private void handleStateless(JsonRpcMessage message, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		if (message instanceof JsonRpcResponse) {
			throw new McpHttpException(HttpStatus.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
					"Invalid request: clients do not send responses in protocol 2026-07-28");
		}
		if (!(message instanceof JsonRpcRequest call)) {
			if (message instanceof JsonRpcNotification notification && CANCELLED.equals(notification.method())) {
				// Over HTTP closing the stream is the cancellation; clients send this as
				// well.
				JsonNode params = (notification.params() instanceof JsonNode node) ? node : null;
				if (!this.listenManager.cancel(params, principal(request), request.getRemoteAddr(),
						connectionId(request))) {
					cancelStreamed(params, request);
				}
			}
			writeAccepted(response);
			return;
		}
		try {
			StatelessRequestValidator.validate(request, call);
		}
		catch (McpHttpException ex) {
			writeError(response, ex.getStatus(), call.id(), ex.getError());
			return;
		}
		if (LISTEN.equals(call.method())) {
			listen(call, request, response);
			return;
		}
		McpStreamedMethod streamed = this.dispatcher.streamedMethod(call.method());
		if (streamed != null) {
			stream(call, streamed, request, response);
			return;
		}
		McpExchange exchange = McpExchange.stateless(principal(request));
		PostResponseStream stream = new PostResponseStream(response, this.codec, acceptsStream(request));
		exchange.setNotificationSink(stream);
		JsonRpcResponse answer = this.dispatcher.dispatchStateless(call, exchange);
		if (stream.isStarted()) {
			stream.finish(answer);
			return;
		}
		writeJson(response, statusOf(answer), answer);
	}

	private void listen(JsonRpcRequest call, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		if (refuseStreamPastCeiling(response, call.id())) {
			return;
		}
		ListenManager.Listen listen;
		try {
			listen = this.listenManager.prepare(call, principal(request), request.getRemoteAddr(),
					connectionId(request));
		}
		catch (ListenRateLimitedException ex) {
			response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(ex.getRetryAfterSeconds()));
			writeJson(response, HttpStatus.TOO_MANY_REQUESTS, JsonRpcResponse.failure(call.id(), ex.getError()));
			return;
		}
		catch (JsonRpcException ex) {
			JsonRpcResponse answer = JsonRpcResponse.failure(call.id(), ex.getError());
			HttpStatus status = statusOf(answer);
			if (ex.getError().code() == JsonRpcErrorCodes.SERVER_ERROR) {
				// A capacity limit, answered like the session limit.
				response.setHeader(HttpHeaders.RETRY_AFTER, "30");
				status = HttpStatus.SERVICE_UNAVAILABLE;
			}
			writeJson(response, status, answer);
			return;
		}
		AsyncSseStream stream;
		try {
			// Listen streams are not resumed: no retry field when the server ends one.
			stream = openStream(request, response,
					(closed) -> listen.ended(((AsyncSseStream) closed).isClosedByServer()), null);
		}
		catch (IOException | RuntimeException ex) {
			listen.release();
			throw ex;
		}
		listen.start(stream);
	}

	/**
	 * A streamed method's request: refused with a single JSON-RPC error, or answered with
	 * its stream, which gets the heartbeats its method writes rather than comments.
	 */
	private void stream(JsonRpcRequest call, McpStreamedMethod method, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
		if (refuseStreamPastCeiling(response, call.id())) {
			return;
		}
		McpStreamedMethod.Call opened;
		try {
			opened = method.open(call, caller(request));
		}
		catch (JsonRpcException ex) {
			JsonRpcResponse answer = JsonRpcResponse.failure(call.id(), ex.getError());
			writeJson(response, statusOf(answer), answer);
			return;
		}
		AsyncSseStream stream;
		try {
			stream = AsyncSseStream.open(request, response, (closed) -> opened.ended(), this::streamDone, null,
					this.timer, this.closeTimeout, opened::heartbeat);
		}
		catch (IOException | RuntimeException ex) {
			opened.release();
			throw ex;
		}
		this.streams.add(stream);
		this.ownHeartbeats.computeIfAbsent(method.heartbeatInterval(), Heartbeats::new).add(stream);
		opened.start(stream);
	}

	private void cancelStreamed(@Nullable JsonNode params, HttpServletRequest request) {
		JsonNode requestId = (params != null) ? params.get("requestId") : null;
		if (requestId != null && (requestId.isString() || requestId.isIntegralNumber())) {
			this.dispatcher.cancelStreamed(requestId, caller(request));
		}
	}

	private static McpStreamedMethod.Caller caller(HttpServletRequest request) {
		return new McpStreamedMethod.Caller(principal(request), request.getRemoteAddr(), connectionId(request));
	}

	/**
	 * Answer a new stream past the ceiling at once with 503 and {@code Retry-After}: past
	 * the container's connection limit a new connection is not refused, its handshake
	 * waits, and requests would wait with it. A load balancer moves the client instead.
	 */
	private boolean refuseStreamPastCeiling(HttpServletResponse response, @Nullable JsonNode id) throws IOException {
		int max = this.maxStreams;
		if (this.streams.size() < max) {
			return false;
		}
		this.refusedStreams.incrementAndGet();
		response.setHeader(HttpHeaders.RETRY_AFTER, "5");
		writeError(response, HttpStatus.SERVICE_UNAVAILABLE, id,
				new JsonRpcError(JsonRpcErrorCodes.SERVER_ERROR,
						"Service unavailable: this node holds as many streams as it may (" + max + ", "
								+ this.maxStreamsReason + "); try again later or on another node",
						new Limit("mcp.endpoint.connection-reserve", max)));
		return true;
	}

	/**
	 * Set the most streams this endpoint opens, below the servlet container's connection
	 * limit; a new stream past it is answered with 503 and {@code Retry-After}.
	 * @param maxStreams the most streams; {@link Integer#MAX_VALUE} for no limit
	 * @param reason how the limit came about (named in the refusal)
	 */
	public void setMaxStreams(int maxStreams, String reason) {
		if (maxStreams < 0) {
			throw new IllegalArgumentException("The stream limit must not be negative, was " + maxStreams);
		}
		this.maxStreamsReason = reason;
		this.maxStreams = maxStreams;
	}

	/**
	 * The most streams this endpoint opens.
	 * @return the limit, {@link Integer#MAX_VALUE} for none
	 */
	public int getMaxStreams() {
		return this.maxStreams;
	}

	/**
	 * How many new streams were refused because the node held its most streams.
	 * @return the count
	 */
	public long getRefusedStreamCount() {
		return this.refusedStreams.get();
	}

	private AsyncSseStream openStream(HttpServletRequest request, HttpServletResponse response,
			Consumer<MessageStream> onClosed, @Nullable Duration retryOnClose) throws IOException {
		AsyncSseStream stream = AsyncSseStream.open(request, response, onClosed, this::streamDone, retryOnClose,
				this.timer, this.closeTimeout);
		this.streams.add(stream);
		this.heartbeats.add(stream);
		return stream;
	}

	private void streamDone(AsyncSseStream stream) {
		this.heartbeats.remove(stream);
		this.ownHeartbeats.values().forEach((wheel) -> wheel.remove(stream));
		this.streams.remove(stream);
	}

	/**
	 * Complete every stream still open, dropping what their clients have not taken: after
	 * the session and listen managers have closed theirs gracefully, and before the web
	 * server's graceful shutdown, which would otherwise wait for them.
	 */
	@Override
	public void close() {
		this.heartbeats.close();
		this.ownHeartbeats.values().forEach(Heartbeats::close);
		for (AsyncSseStream stream : List.copyOf(this.streams)) {
			stream.abort();
		}
	}

	/**
	 * How many streams this endpoint holds open, closing ones included.
	 * @return the count
	 */
	public int getOpenStreamCount() {
		return this.streams.size();
	}

	/**
	 * How many heartbeat comments this endpoint has written to its streams.
	 * @return the count
	 */
	public long getHeartbeatCount() {
		return this.heartbeats.getHeartbeatCount();
	}

	private static HttpStatus statusOf(JsonRpcResponse answer) {
		if (answer.error() == null) {
			return HttpStatus.OK;
		}
		return switch (answer.error().code()) {
			case JsonRpcErrorCodes.METHOD_NOT_FOUND -> HttpStatus.NOT_FOUND;
			case JsonRpcErrorCodes.MISSING_CLIENT_CAPABILITY -> HttpStatus.BAD_REQUEST;
			default -> HttpStatus.OK;
		};
	}

	private void handleBatch(JsonNode batch, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		if (batch.isEmpty()) {
			throw new McpHttpException(HttpStatus.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
					"Invalid request: an empty batch");
		}
		if (request.getHeader(McpHeaders.SESSION_ID) == null) {
			throw new McpHttpException(HttpStatus.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
					"Invalid request: batches are accepted only in a 2025-03-26 session; "
							+ "initialize must be sent on its own");
		}
		McpSession session = requireSession(request);
		if (!ProtocolVersions.acceptsBatches(session.getProtocolVersion())) {
			throw new McpHttpException(HttpStatus.BAD_REQUEST, JsonRpcErrorCodes.INVALID_REQUEST,
					"Invalid request: protocol version " + session.getProtocolVersion()
							+ " does not allow JSON-RPC batches; send one message per request");
		}
		McpExchange exchange = McpExchange.forSession(session, principal(request));
		List<JsonRpcResponse> answers = new ArrayList<>();
		for (JsonNode element : batch) {
			try {
				JsonRpcMessage message = this.codec.read(element);
				if (message instanceof JsonRpcRequest call && isInitialize(call)) {
					answers.add(JsonRpcResponse.failure(call.id(), new JsonRpcError(JsonRpcErrorCodes.INVALID_REQUEST,
							"Invalid request: initialize must not be part of a batch")));
					continue;
				}
				JsonRpcResponse answer = this.dispatcher.dispatch(message, exchange);
				if (answer != null) {
					answers.add(answer);
				}
			}
			catch (InvalidMessageException ex) {
				answers.add(JsonRpcResponse.failure(ex.getId(), ex.getError()));
			}
		}
		if (answers.isEmpty()) {
			writeAccepted(response);
		}
		else {
			writeJson(response, HttpStatus.OK, answers);
		}
	}

	@GetMapping
	public void get(HttpServletRequest request, HttpServletResponse response) throws IOException {
		try {
			this.dnsRebindingProtection.check(request);
			if (!accepts(request, EVENT_STREAM)) {
				throw new McpHttpException(HttpStatus.NOT_ACCEPTABLE, JsonRpcErrorCodes.SERVER_ERROR,
						"Not Acceptable: the GET stream is served as text/event-stream only");
			}
			if (request.getHeader(McpHeaders.SESSION_ID) == null) {
				throw missingSession();
			}
			McpSession session = requireSession(request);
			if (refuseStreamPastCeiling(response, null)) {
				return;
			}
			// Deliveries on this node are judged with the authentication that opened the
			// stream:
			// a session store may hold only the principal's name.
			this.sessionManager.getSubscriber(session).setPrincipal(principal(request));
			openSessionStream(session, request, response, request.getHeader(McpHeaders.LAST_EVENT_ID));
		}
		catch (McpHttpException ex) {
			writeError(response, ex.getStatus(), null, ex.getError());
		}
		catch (RuntimeException ex) {
			internalError(response, ex);
		}
	}

	private void openSessionStream(McpSession session, HttpServletRequest request, HttpServletResponse response,
			@Nullable String lastEventId) throws IOException {
		AsyncSseStream stream = openStream(request, response,
				(closed) -> this.sessionManager.streamClosed(session.getId(), closed),
				this.sessionManager.getCloseRetry(session));
		try {
			// Commits the status and headers now: without a first write, clients would
			// wait
			// for them until the first message or keep-alive.
			stream.sendComment("stream open");
		}
		catch (IOException ex) {
			return;
		}
		try {
			this.sessionManager.attachStream(session, stream, lastEventId);
		}
		catch (RuntimeException ex) {
			// The response is committed: the stream ends, and the client tries again.
			stream.abort();
			throw ex;
		}
	}

	@DeleteMapping
	public void delete(HttpServletRequest request, HttpServletResponse response) throws IOException {
		try {
			this.dnsRebindingProtection.check(request);
			if (request.getHeader(McpHeaders.SESSION_ID) == null) {
				throw missingSession();
			}
			McpSession session = requireSession(request);
			if (!this.sessionManager.end(session.getId(), SessionEndReason.DELETED)) {
				throw sessionNotFound();
			}
			response.setStatus(HttpStatus.NO_CONTENT.value());
		}
		catch (McpHttpException ex) {
			writeError(response, ex.getStatus(), null, ex.getError());
		}
		catch (RuntimeException ex) {
			internalError(response, ex);
		}
	}

	@RequestMapping(method = { RequestMethod.PUT, RequestMethod.PATCH })
	public void otherMethods(HttpServletResponse response) throws IOException {
		response.setHeader(HttpHeaders.ALLOW, "GET, POST, DELETE");
		writeError(response, HttpStatus.METHOD_NOT_ALLOWED, null,
				new JsonRpcError(JsonRpcErrorCodes.SERVER_ERROR, "Method not allowed: use POST, GET or DELETE"));
	}

	private McpSession requireSession(HttpServletRequest request) {
		String sessionId = request.getHeader(McpHeaders.SESSION_ID);
		McpSession session = (sessionId != null) ? this.sessionManager.find(sessionId, principalName(request)) : null;
		if (session == null) {
			throw sessionNotFound();
		}
		checkProtocolVersionHeader(request);
		return session;
	}

	/**
	 * Any supported version is accepted, even one other than the negotiated version:
	 * clients and the conformance suite send older versions on newer sessions.
	 */
	private static void checkProtocolVersionHeader(HttpServletRequest request) {
		String version = request.getHeader(McpHeaders.PROTOCOL_VERSION);
		if (version != null && !ProtocolVersions.isSessionEra(version)) {
			throw new McpHttpException(HttpStatus.BAD_REQUEST, JsonRpcErrorCodes.SERVER_ERROR,
					"Bad Request: unsupported protocol version " + version + " (supported: "
							+ String.join(", ", ProtocolVersions.SESSION_ERA) + ")");
		}
	}

	private static McpHttpException missingSession() {
		return new McpHttpException(HttpStatus.BAD_REQUEST, JsonRpcErrorCodes.SERVER_ERROR,
				"Bad Request: missing " + McpHeaders.SESSION_ID + " header; send initialize first");
	}

	private static McpHttpException sessionNotFound() {
		return new McpHttpException(HttpStatus.NOT_FOUND, JsonRpcErrorCodes.SESSION_NOT_FOUND,
				"Session not found: it ended or never existed; send initialize to start a new one");
	}

	private static boolean isInitialize(JsonRpcRequest request) {
		return "initialize".equals(request.method());
	}

	private static @Nullable Principal principal(HttpServletRequest request) {
		return request.getUserPrincipal();
	}

	/**
	 * The network connection a request came over, which alone ties a cancellation to the
	 * listen stream it names (both on one HTTP/2 connection); {@code null} where the
	 * container does not tell.
	 */
	private static @Nullable String connectionId(HttpServletRequest request) {
		try {
			return request.getServletConnection().getConnectionId();
		}
		catch (UnsupportedOperationException ex) {
			return null;
		}
	}

	private static @Nullable String principalName(HttpServletRequest request) {
		Principal principal = request.getUserPrincipal();
		return (principal != null) ? principal.getName() : null;
	}

	private static void checkContentType(HttpServletRequest request) {
		String contentType = request.getContentType();
		MediaType type = null;
		try {
			type = (contentType != null) ? MediaType.parseMediaType(contentType) : null;
		}
		catch (InvalidMediaTypeException ex) {
			// Reported below like any other unsupported type.
		}
		if (type == null || !MediaType.APPLICATION_JSON.equalsTypeAndSubtype(type)) {
			throw new McpHttpException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, JsonRpcErrorCodes.SERVER_ERROR,
					"Unsupported Media Type: Content-Type must be application/json");
		}
	}

	private static void checkPostAccept(HttpServletRequest request) {
		if (!accepts(request, MediaType.APPLICATION_JSON) || !accepts(request, EVENT_STREAM)) {
			throw new McpHttpException(HttpStatus.NOT_ACCEPTABLE, JsonRpcErrorCodes.SERVER_ERROR,
					"Not Acceptable: the Accept header must list both application/json and text/event-stream");
		}
	}

	/**
	 * Whether the Accept header names a type explicitly. Wildcards do not count: the
	 * transport requires clients to list the types they handle.
	 */
	private static boolean accepts(HttpServletRequest request, MediaType type) {
		for (String header : Collections.list(request.getHeaders(HttpHeaders.ACCEPT))) {
			try {
				for (MediaType accepted : MediaType.parseMediaTypes(header)) {
					if (type.equalsTypeAndSubtype(accepted)) {
						return true;
					}
				}
			}
			catch (InvalidMediaTypeException ex) {
				return false;
			}
		}
		return false;
	}

	private byte[] readBody(HttpServletRequest request) throws IOException {
		long declared = request.getContentLengthLong();
		if (declared > this.maxRequestSize) {
			throw tooLarge();
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream((declared > 0) ? (int) declared : 1024);
		byte[] buffer = new byte[8192];
		try (InputStream in = request.getInputStream()) {
			int read;
			while ((read = in.read(buffer)) != -1) {
				if (body.size() + read > this.maxRequestSize) {
					throw tooLarge();
				}
				body.write(buffer, 0, read);
			}
		}
		return body.toByteArray();
	}

	private McpHttpException tooLarge() {
		return new McpHttpException(HttpStatus.PAYLOAD_TOO_LARGE, JsonRpcErrorCodes.INVALID_REQUEST,
				"Payload Too Large: the body exceeds " + this.maxRequestSize
						+ " bytes (mcp.endpoint.max-request-size)");
	}

	private static boolean acceptsStream(HttpServletRequest request) {
		String accept = request.getHeader(HttpHeaders.ACCEPT);
		return accept != null && accept.contains(MediaType.TEXT_EVENT_STREAM_VALUE);
	}

	private void writeAccepted(HttpServletResponse response) {
		response.setStatus(HttpStatus.ACCEPTED.value());
		response.setContentLength(0);
	}

	private void writeError(HttpServletResponse response, HttpStatus status, @Nullable JsonNode id, JsonRpcError error)
			throws IOException {
		writeJson(response, status, JsonRpcResponse.failure(id, error));
	}

	private void writeJson(HttpServletResponse response, HttpStatus status, Object body) throws IOException {
		byte[] bytes = this.codec.write(body);
		response.setStatus(status.value());
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setContentLength(bytes.length);
		response.getOutputStream().write(bytes);
	}

	private void internalError(HttpServletResponse response, RuntimeException ex) throws IOException {
		if (ex instanceof StoreUnavailableException) {
			// A backing service is down, not a bug: clients retry, and the node recovers.
			this.outageWarnings.refused(ex.getMessage());
			if (!response.isCommitted()) {
				response.setHeader(HttpHeaders.RETRY_AFTER, "5");
				writeError(response, HttpStatus.SERVICE_UNAVAILABLE, null, new JsonRpcError(
						JsonRpcErrorCodes.SERVER_ERROR, "Service unavailable: the session store cannot be reached"));
			}
			return;
		}
		logger.error("MCP request failed", ex);
		if (!response.isCommitted()) {
			writeError(response, HttpStatus.INTERNAL_SERVER_ERROR, null,
					new JsonRpcError(JsonRpcErrorCodes.INTERNAL_ERROR, "Internal error"));
		}
	}

	record Limit(String limit, int value) {
	}

}
