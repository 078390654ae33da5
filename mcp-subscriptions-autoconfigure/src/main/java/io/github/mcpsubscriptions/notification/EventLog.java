package io.github.mcpsubscriptions.notification;

import java.io.IOException;

import org.jspecify.annotations.Nullable;

/**
 * The last link of a stream's writer chain: gives each message its event id, records it
 * for replay, and writes it to the stream. The engine calls it for every message it
 * writes to a subscriber's stream, after the resync expansion and the encoding; it never
 * calls back into the engine. A 2025 session's is its replay log (one node) or the shared
 * change log (a cluster); a 2026 listen stream's is {@link #NONE}.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface EventLog {

	/** No event ids, no replay: the message is written as a plain SSE event. */
	EventLog NONE = (stream, position, message) -> stream.send(null, message);

	/**
	 * Write a message to a stream, with its event id.
	 * @param stream the subscriber's stream
	 * @param position the position of the change the message reports in a shared change
	 * log, or {@code null} (a single node, or a message that reports no change)
	 * @param message the message, its bytes shared with the other streams it goes to
	 * @throws IOException when the client is gone
	 */
	void send(MessageStream stream, @Nullable String position, EncodedMessage message) throws IOException;

}
