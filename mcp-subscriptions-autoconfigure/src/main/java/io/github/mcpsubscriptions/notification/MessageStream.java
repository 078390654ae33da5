package io.github.mcpsubscriptions.notification;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * A live, node-local stream of server-to-client messages: an SSE response that is still
 * open. Implementations serialize concurrent writes. A non-blocking implementation keeps
 * what the client has not taken yet and says so through {@link #whenWritable}; its writer
 * then waits for the callback instead of writing more.
 *
 * @since 0.1.0
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
	 * Write one message whose bytes are built already, mostly shared with other streams.
	 * @param eventId the SSE event id, or {@code null} for none
	 * @param data the message (one line of JSON)
	 * @throws IOException when the client is gone; the stream is closed then
	 */
	default void send(@Nullable String eventId, EncodedMessage data) throws IOException {
		send(eventId, data.text());
	}

	/**
	 * Write one message whose bytes are built already, under the event id
	 * {@code eventIdPrefix} followed by {@code eventIdSequence} in decimal. A stream that
	 * builds its frames as bytes writes the id's digits straight into the frame: this
	 * runs once per subscriber and message, and an id's string and its bytes were half of
	 * what delivery allocated.
	 * @param eventIdPrefix the id's first part, in ASCII
	 * @param eventIdSequence the id's number, at least 0
	 * @param data the message (one line of JSON)
	 * @throws IOException when the client is gone; the stream is closed then
	 */
	default void send(byte[] eventIdPrefix, long eventIdSequence, EncodedMessage data) throws IOException {
		send(new String(eventIdPrefix, StandardCharsets.US_ASCII) + eventIdSequence, data);
	}

	/**
	 * Write a priming event: an event id with empty data, so that a client which loses
	 * the connection reconnects with that id as {@code Last-Event-ID}. Only clients of
	 * protocol 2025-11-25 or later understand it. It never carries an SSE {@code retry}
	 * field: the specification asks for one only before the server ends a stream
	 * ({@link #close()}), and the MCP Java SDK 2.0.x client (which Spring AI 2.0.1
	 * brings) drops a stream whose first event has one.
	 * @param eventId the event id
	 * @throws IOException when the client is gone; the stream is closed then
	 */
	void prime(String eventId) throws IOException;

	/**
	 * Write a comment line, which clients ignore; used to keep idle connections open and
	 * to find clients that vanished without closing TCP.
	 * @param comment the comment text
	 * @throws IOException when the client is gone; the stream is closed then
	 */
	void sendComment(String comment) throws IOException;

	/**
	 * Writes the messages of one batch, one at a time.
	 */
	@FunctionalInterface
	interface BatchWriter {

		/**
		 * Write the next message of the batch, if there is one.
		 * @param stream the stream to write it to
		 * @return {@code false} when the batch has nothing more
		 * @throws IOException when the client is gone
		 */
		boolean writeNext(MessageStream stream) throws IOException;

	}

	/**
	 * Write several messages with one flush rather than one each: {@code writer} is
	 * called until it has nothing more or what it wrote reaches {@code maxBytes}, then
	 * everything is handed to the network together. A stream that writes through on every
	 * message calls the writer until it has nothing more.
	 * @param maxBytes the size after which the batch ends, at least one message
	 * @param writer writes the messages
	 * @throws IOException when the client is gone; the stream is closed then
	 */
	default void sendBatch(int maxBytes, BatchWriter writer) throws IOException {
		while (writer.writeNext(this)) {
			// Every message went out on its own.
		}
	}

	/**
	 * Whether everything written so far has been handed to the network. If not, the
	 * callback runs once it has (on a container thread: it must only hand work over), and
	 * nothing should be written until then. A stream that blocks in its writes is always
	 * writable.
	 * @param callback run when the stream becomes writable, if it is not now
	 * @return {@code true} if more can be written now; {@code false} if the callback will
	 * run later (or the stream ends first)
	 */
	default boolean whenWritable(Runnable callback) {
		return true;
	}

	/**
	 * Whether the stream can still be written to.
	 * @return {@code true} until it is closed by either side
	 */
	boolean isOpen();

	/**
	 * Complete the response cleanly, as the server does when the client should come back
	 * (the server stops, gives up a slow consumer, or the stream's credentials expire).
	 * Does nothing if it is closed already. Never waits for a client which stopped
	 * reading. A stream a client is meant to resume sends an SSE {@code retry} field
	 * first.
	 */
	void close();

	/**
	 * Complete the response cleanly for good: the client has nothing to come back for on
	 * this stream (its session ended, or a newer stream replaced it), so no SSE
	 * {@code retry} field invites it to reconnect. Otherwise as {@link #close()}.
	 */
	default void closeForGood() {
		close();
	}

}
