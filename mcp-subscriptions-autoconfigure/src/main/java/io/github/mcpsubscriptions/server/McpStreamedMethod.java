package io.github.mcpsubscriptions.server;

import java.security.Principal;
import java.time.Duration;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcRequest;
import io.github.mcpsubscriptions.notification.MessageStream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A 2026-era method of a feature outside this package (an extension, such as the Events
 * extension's {@code events/stream}) whose response is a stream of its own, served by the
 * transport as listen streams are: the same non-blocking SSE streams, the same heartbeat
 * wheel, the same release on a client's close. Such a stream is a subscription, not a
 * request in flight, so no cap on concurrent requests counts it.
 *
 * @since 0.1.0
 */
public interface McpStreamedMethod {

	/**
	 * Validate a request and reserve what its stream holds. A refusal is answered with a
	 * single JSON-RPC error, and no stream opens.
	 * @param request the request
	 * @param caller who sent it
	 * @return the call, to {@link Call#start start} on its stream or to
	 * {@link Call#release() release}
	 * @throws JsonRpcException to refuse it
	 */
	Call open(JsonRpcRequest request, Caller caller);

	/**
	 * How often each of its streams gets a heartbeat ({@link Call#heartbeat()}), on a
	 * fixed schedule: its streams get no heartbeat comments.
	 * @return the interval, positive
	 */
	Duration heartbeatInterval();

	/**
	 * End the stream a {@code notifications/cancelled} names, if it names exactly one of
	 * the caller's own (as {@link ListenManager#cancel} judges it: over the stream's own
	 * connection, by the same principal).
	 * @param requestId the cancelled request's id
	 * @param caller who sent the notification
	 * @return whether a stream ended
	 */
	boolean cancel(JsonNode requestId, Caller caller);

	/**
	 * Who sent a request.
	 *
	 * @param principal the authenticated principal, or {@code null}
	 * @param address the client's address
	 * @param connection the id of the network connection it came over, or {@code null} if
	 * the server does not tell
	 */
	record Caller(@Nullable Principal principal, String address, @Nullable String connection) {
	}

	/**
	 * One accepted request, whose response is its stream.
	 */
	interface Call {

		/**
		 * Start writing to the request's response stream.
		 * @param stream the stream
		 */
		void start(MessageStream stream);

		/**
		 * The heartbeat wheel's turn: write a heartbeat soon. Called on the wheel's
		 * thread, so it only hands the write over.
		 */
		void heartbeat();

		/**
		 * The stream ended, whoever ended it: release everything the call holds.
		 */
		void ended();

		/**
		 * The stream could not be opened: release what {@link McpStreamedMethod#open}
		 * reserved.
		 */
		void release();

	}

}
