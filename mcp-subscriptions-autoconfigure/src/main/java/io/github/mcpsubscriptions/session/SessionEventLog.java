package io.github.mcpsubscriptions.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import io.github.mcpsubscriptions.notification.EncodedMessage;
import io.github.mcpsubscriptions.notification.EventLog;
import io.github.mcpsubscriptions.notification.MessageStream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The event ids and the replay log of a session's GET stream.
 * <p>
 * An event id is {@code <stream>-<sequence>}: the stream part is random per session, so
 * an id of another session (or a forged one) is never mistaken for one of this session's;
 * the sequence counts the stream's messages. The last {@code capacity} messages are kept,
 * so that a client reconnecting with {@code Last-Event-ID} gets exactly what followed.
 * <p>
 * On one node it is the last link of the session's writer chain ({@link EventLog}): the
 * engine hands it each message, it records it and writes it to the stream.
 *
 * @since 0.1.0
 */
public final class SessionEventLog implements EventLog {

	private static final Log logger = LogFactory.getLog(SessionEventLog.class);

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final char PRIMING_SEPARATOR = '.';

	/** Messages per chunk of the log. */
	private static final int CHUNK = 32;

	/** The spine a log starts with: large enough for the default capacity's. */
	private static final int FIRST_SPINE = 16;

	private static final String[] NO_CHUNK = {};

	private final String stream;

	/** {@code <stream>-} in ASCII, which every id of the session starts with. */
	private final byte[] idPrefix;

	private final int capacity;

	/**
	 * The messages kept, in chunks: the message of sequence {@code s} (from 1) is at
	 * {@code (s - 1) % CHUNK} in chunk number {@code (s - 1) / CHUNK}, which is at that
	 * number modulo the spine's length in the spine. The spine holds one chunk more than
	 * the capacity needs, so the last {@link #capacity} messages are always there (with
	 * fewer than two chunks of older ones, never replayed). Only the message, which the
	 * other sessions it went to share. An event object and an id string per kept message
	 * were most of a busy session's heap (256 of each by default, times thousands of
	 * sessions), and the garbage collector's work as they aged.
	 * <p>
	 * Chunks, rather than one array of every kept message, for the garbage collector: a
	 * message stored into an array that has lived through a collection is a card to
	 * refine (an old array referring to a young message), once per message and session,
	 * while a chunk is young as it fills; only its place in the spine is such a store,
	 * once per chunk. A chunk starts at a message number, never when the log is full: a
	 * question whose answer changes once per session, after its capacity's worth of
	 * messages, made the compiled delivery code that asked it be thrown away then (every
	 * method it was inlined into, run interpreted until compiled again), which in the
	 * load harness was 8.5 s into the window it measures.
	 */
	private String[][] spine;

	/** The spine's size once it holds every chunk the capacity needs, and one more. */
	private final int fullSpine;

	/**
	 * The chunk the next message goes into, unless it starts one: the spine's last, kept
	 * at hand so that a message costs no division.
	 */
	private String[] current = NO_CHUNK;

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
		this.fullSpine = (int) ((capacity + (long) CHUNK - 1) / CHUNK + 1);
		this.spine = new String[Math.min(this.fullSpine, FIRST_SPINE)][];
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
	 * writes without a string of them. The message is recorded even if the write fails,
	 * so that a reconnect with {@code Last-Event-ID} still gets it.
	 * @param message the message, its bytes shared with the other streams it goes to
	 * @param stream the session's stream
	 * @throws IOException when the client is gone
	 */
	public void appendAndSend(EncodedMessage message, MessageStream stream) throws IOException {
		stream.send(this.idPrefix, record(message.text()), message);
	}

	/**
	 * Record a message and write it to the session's stream under its id. A stream that
	 * closed takes nothing: the message waits in the outbox for the next one. A write
	 * that fails leaves it in the log, where a reconnect with {@code Last-Event-ID} finds
	 * it.
	 * @param stream the session's stream
	 * @param position not used: a session's own log numbers its messages itself
	 * @param message the message
	 * @throws IOException when the stream is closed
	 */
	@Override
	public void send(MessageStream stream, @Nullable String position, EncodedMessage message) throws IOException {
		if (!stream.isOpen()) {
			throw new IOException("The stream is closed");
		}
		try {
			appendAndSend(message, stream);
		}
		catch (IOException ex) {
			logger.debug("A session's stream failed; the message waits in its replay log", ex);
		}
	}

	private synchronized long record(String data) {
		long sequence = ++this.lastSequence;
		long position = sequence - 1;
		int offset = (int) position & (CHUNK - 1);
		if (offset == 0) {
			// Taken by a session's first message already: an answer that never changes.
			this.current = startChunk(position / CHUNK);
		}
		this.current[offset] = data;
		return sequence;
	}

	private String[] startChunk(long number) {
		// False from the start for a spine that is full size, the default's.
		if (this.spine.length < this.fullSpine && number == this.spine.length) {
			// Before any chunk is replaced: the chunks so far keep their places.
			this.spine = Arrays.copyOf(this.spine, Math.min(2 * this.spine.length, this.fullSpine));
		}
		String[] chunk = new String[CHUNK];
		this.spine[(int) (number % this.spine.length)] = chunk;
		return chunk;
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
	 * @param resumedFrom the client's {@code Last-Event-ID} when the stream replays from
	 * it, else {@code null}: the priming event stands after the last message
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
		for (long next = sequence + 1; next <= this.lastSequence; next++) {
			replay.add(new Event(id(next), next, message(next)));
		}
		return replay;
	}

	/** A kept message, by its sequence. Called with the lock held. */
	private String message(long sequence) {
		assert Thread.holdsLock(this);
		long position = sequence - 1;
		return this.spine[(int) ((position / CHUNK) % this.spine.length)][(int) (position % CHUNK)];
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
	 * @since 0.1.0
	 */
	public record Event(String id, long sequence, String data) {
	}

}
