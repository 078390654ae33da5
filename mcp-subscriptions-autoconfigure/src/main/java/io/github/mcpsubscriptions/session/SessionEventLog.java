package io.github.mcpsubscriptions.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
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

	/** The most messages a log keeps: its ring's size is the power of two at or above it. */
	static final int MAX_CAPACITY = 1 << 30;

	/** The ring a log starts with: the default capacity's, which therefore never grows. */
	private static final int FIRST_RING = 256;

	/**
	 * The messages kept, by sequence: the message of sequence {@code s} is at
	 * {@code s & (ring.length - 1)}, and the last {@link #capacity} of them are replayed
	 * (with a capacity that is not a power of two, a few older ones linger until
	 * overwritten). Only the message, which the other sessions it went to share. An event
	 * object and an id string per kept message were most of a busy session's heap (256 of
	 * each by default, times thousands of sessions), and the garbage collector's work as
	 * they aged.
	 * <p>
	 * A ring rather than a deque that drops its oldest when full: whether the log is full
	 * changes once per session, after its capacity's worth of messages, and the compiled
	 * delivery code that asked was then thrown away at once (a deoptimization of every
	 * method it was inlined into, run interpreted until compiled again): in the load
	 * harness, 8.5 s into the publishing, in the middle of the window it measures.
	 */
	private String[] ring;

	/** The size the ring grows to, if it starts smaller. */
	private final int fullRing;

	private long lastSequence;

	private long primings;

	/**
	 * Create an empty log.
	 * @param capacity how many messages to keep
	 */
	public SessionEventLog(int capacity) {
		if (capacity < 1 || capacity > MAX_CAPACITY) {
			throw new IllegalArgumentException(
					"The replay log must keep between 1 and " + MAX_CAPACITY + " messages, was " + capacity);
		}
		byte[] bytes = new byte[6];
		RANDOM.nextBytes(bytes);
		this.stream = HexFormat.of().formatHex(bytes);
		this.idPrefix = (this.stream + "-").getBytes(StandardCharsets.US_ASCII);
		this.capacity = capacity;
		this.fullRing = (capacity == 1) ? 1 : Integer.highestOneBit(capacity - 1) << 1;
		this.ring = new String[Math.min(this.fullRing, FIRST_RING)];
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
		long sequence = ++this.lastSequence;
		String[] ring = this.ring;
		// False from the start for a log whose ring is full size, the default's: never a
		// branch whose answer changes while delivering.
		if (ring.length < this.fullRing && sequence > ring.length) {
			ring = grow();
		}
		ring[(int) sequence & (ring.length - 1)] = data;
		return sequence;
	}

	/**
	 * A ring twice the size, before the first message would overwrite the oldest: the
	 * messages so far are those of sequence 1 to the old size.
	 */
	private String[] grow() {
		String[] old = this.ring;
		String[] grown = new String[2 * old.length];
		for (int sequence = 1; sequence <= old.length; sequence++) {
			grown[sequence & (grown.length - 1)] = old[sequence & (old.length - 1)];
		}
		this.ring = grown;
		return grown;
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
		long oldestKept = Math.max(1, this.lastSequence - this.capacity + 1);
		if (sequence + 1 < oldestKept) {
			return null;
		}
		List<Event> replay = new ArrayList<>((int) (this.lastSequence - sequence));
		int mask = this.ring.length - 1;
		for (long next = sequence + 1; next <= this.lastSequence; next++) {
			replay.add(new Event(id(next), next, this.ring[(int) next & mask]));
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
