package io.github.mcpsubscriptions.notification;

import java.io.IOException;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A live, node-local stream of server-to-client messages: an SSE response that is still
 * open. Implementations serialize concurrent writes.
 */
public interface MessageStream {

	/**
	 * Write one message.
	 * @param eventId the SSE event id, or {@code null} for none
	 * @param data the message (one line of JSON), or an empty string for a priming event
	 * @throws IOException when the client is gone; the stream is closed then
	 */
	void send(@Nullable String eventId, String data) throws IOException;

	/**
	 * Write a priming event: an event id with empty data, so that a client which loses the
	 * connection reconnects with that id as {@code Last-Event-ID}. Only clients of protocol
	 * 2025-11-25 or later understand it.
	 * @param eventId the event id
	 * @param retry how long the client waits before reconnecting (an SSE {@code retry:}
	 * field), or {@code null} to leave it to the client
	 * @throws IOException when the client is gone; the stream is closed then
	 */
	void prime(String eventId, @Nullable Duration retry) throws IOException;

	/**
	 * Write a comment line, which clients ignore; used to keep idle connections open and
	 * to find clients that vanished without closing TCP.
	 * @param comment the comment text
	 * @throws IOException when the client is gone; the stream is closed then
	 */
	void sendComment(String comment) throws IOException;

	/**
	 * Whether the stream can still be written to.
	 * @return {@code true} until it is closed by either side
	 */
	boolean isOpen();

	/**
	 * Complete the response cleanly. Does nothing if it is closed already. Never waits for
	 * a write that a client which stopped reading keeps blocked.
	 */
	void close();

}
