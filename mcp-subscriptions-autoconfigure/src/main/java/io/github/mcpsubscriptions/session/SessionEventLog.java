package io.github.mcpsubscriptions.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import io.github.mcpsubscriptions.notification.EncodedMessage;
import io.github.mcpsubscriptions.notification.MessageStream;
import org.jspecify.annotations.Nullable;

/**
 * The event ids and the replay log of a session's GET stream.
 * <p>
 * An event id is {@code <stream>-<sequence>}: the stream part is random per session, so an
 * id of another session (or a forged one) is never mistaken for one of this session's;
 * the sequence counts the stream's messages. The last {@code capacity} messages are kept,
 * so that a client reconnecting with {@code Last-Event-ID} gets exactly what followed.
 */
public final class SessionEventLog {

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final char PRIMING_SEPARATOR = '.';

	private final String stream;

	/** {@code <stream>-} in ASCII, which every id of the session starts with. */
	private final byte[] idPrefix;

	private final int capacity;

	/**
	 * The messages kept, oldest first, the last being {@link #lastSequence}'s: only the
	 * message, which the other sessions it went to share. An event object and an id
	 * string per kept message were most of a busy session's heap (256 of each by default,
	 * times thousands of sessions), and the garbage collector's work as they aged.
	 */
	private final ArrayDeque<String> messages;

	private long lastSequence;

	private long primings;

	/**
	 * Create an empty log.
	 * @param capacity how many messages to keep
	 */
	public SessionEventLog(int capacity) {
		if (capacity < 1) {
			throw new IllegalArgumentException("The replay log must keep at least 1 message, was " + capacity);
		}
		byte[] bytes = new byte[6];
		RANDOM.nextBytes(bytes);
		this.stream = HexFormat.of().formatHex(bytes);
		this.idPrefix = (this.stream + "-").getBytes(StandardCharsets.US_ASCII);
		this.capacity = capacity;
		this.messages = new ArrayDeque<>(Math.min(capacity, 64));
	}

	/**
	 * Record a message about to be sent and give it its id.
	 * @param data the message
	 * @return its event id
	 */
	public String append(String data) {
		return id(record(data));
	}

	/**
	 * Record a message and write it to a stream under its id, whose digits the stream
	 * writes without a string of them. The message is recorded even if the write fails, so
	 * that a reconnect with {@code Last-Event-ID} still gets it.
	 * @param message the message, its bytes shared with the other streams it goes to
	 * @param stream the session's stream
	 * @throws IOException when the client is gone
	 */
	public void appendAndSend(EncodedMessage message, MessageStream stream) throws IOException {
		stream.send(this.idPrefix, record(message.text()), message);
	}

	private synchronized long record(String data) {
		this.lastSequence++;
		if (this.messages.size() == this.capacity) {
			this.messages.removeFirst();
		}
		this.messages.addLast(data);
		return this.lastSequence;
	}

	/**
	 * The id of the last message, which a client that has seen everything would send as
	 * {@code Last-Event-ID}.
	 * @return the id
	 */
	public synchronized String lastId() {
		return id(this.lastSequence);
	}

	/**
	 * An id for a priming event: unique within the session, yet a {@code Last-Event-ID}
	 * naming it resumes from the same place as the message it follows.
	 * @param resumedFrom the client's {@code Last-Event-ID} when the stream replays from it,
	 * else {@code null}: the priming event stands after the last message
	 * @return the id
	 */
	public synchronized String primingId(@Nullable String resumedFrom) {
		long sequence = (resumedFrom != null) ? sequenceOf(resumedFrom) : -1;
		this.primings++;
		return id((sequence >= 0) ? sequence : this.lastSequence) + PRIMING_SEPARATOR + this.primings;
	}

	/**
	 * What followed an event.
	 * @param lastEventId the client's {@code Last-Event-ID}
	 * @return the messages after it, in order, or {@code null} when the id is unknown or
	 * older than the log: a gap that replay cannot fill
	 */
	public synchronized @Nullable List<Event> after(String lastEventId) {
		long sequence = sequenceOf(lastEventId);
		if (sequence < 0 || sequence > this.lastSequence) {
			return null;
		}
		long oldestKept = this.lastSequence - this.messages.size() + 1;
		if (sequence + 1 < oldestKept) {
			return null;
		}
		List<Event> replay = new ArrayList<>((int) (this.lastSequence - sequence));
		long next = oldestKept;
		for (String message : this.messages) {
			if (next > sequence) {
				replay.add(new Event(id(next), next, message));
			}
			next++;
		}
		return replay;
	}

	private long sequenceOf(String id) {
		String prefix = this.stream + "-";
		if (!id.startsWith(prefix)) {
			return -1;
		}
		String position = id.substring(prefix.length());
		int priming = position.indexOf(PRIMING_SEPARATOR);
		try {
			// A priming event's id stands where the message before it does.
			if (priming >= 0) {
				Long.parseLong(position.substring(priming + 1));
				position = position.substring(0, priming);
			}
			return Long.parseLong(position);
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	private String id(long sequence) {
		return this.stream + "-" + sequence;
	}

	/**
	 * A message sent on the stream.
	 *
	 * @param id its event id
	 * @param sequence its position in the stream
	 * @param data the message
	 */
	public record Event(String id, long sequence, String data) {
	}

}
