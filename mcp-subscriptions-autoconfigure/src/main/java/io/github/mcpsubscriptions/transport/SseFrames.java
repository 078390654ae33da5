package io.github.mcpsubscriptions.transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

import io.github.mcpsubscriptions.notification.EncodedMessage;
import org.jspecify.annotations.Nullable;

/**
 * SSE frames, built as UTF-8 bytes in one growable array: an event's {@code id} line, its
 * {@code event:message} line, a {@code data} line per line of its payload and the blank
 * line that ends it; comments; the {@code retry} field. Nothing here does I/O or takes a
 * lock: the stream that owns the bytes decides when they go to the client.
 * <p>
 * A payload's lines are split at {@code \n}, each behind a {@code data:} of its own (a
 * {@code \r} before it stays, which clients read as the same line end). An event id
 * holding a line break or a NUL is refused: a client would read it as another field, or
 * ignore it.
 */
final class SseFrames {

	static final String MESSAGE_EVENT = "message";

	private static final byte[] ID = "id:".getBytes(StandardCharsets.UTF_8);

	private static final byte[] MESSAGE_EVENT_LINE = ("event:" + MESSAGE_EVENT + "\n").getBytes(StandardCharsets.UTF_8);

	private static final byte[] DATA = "data:".getBytes(StandardCharsets.UTF_8);

	private static final byte[] HEARTBEAT = ":heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

	private static final byte[] RETRY = "retry:".getBytes(StandardCharsets.UTF_8);

	/** No number follows an event id. */
	private static final long NO_SEQUENCE = -1;

	/**
	 * The array the frames are in: {@link #kept}, or a larger copy once they outgrew it.
	 */
	private byte[] bytes;

	/** What the frames go back to when {@link #clear(int) cleared}. */
	private byte[] kept;

	private int length;

	SseFrames(int capacity) {
		this.bytes = new byte[capacity];
		this.kept = this.bytes;
	}

	/**
	 * A message event: {@code event:message} and the payload's lines, or an event with
	 * empty data and no type for an empty payload (a priming event).
	 * @param eventId the event id, or {@code null} for none
	 * @param data the payload
	 */
	void message(@Nullable String eventId, String data) {
		byte[] id = (eventId != null) ? idBytes(eventId) : null;
		String lines = (data.indexOf('\n') < 0) ? data : data.replace("\n", "\ndata:");
		frame(id, NO_SEQUENCE, !data.isEmpty(), EncodedMessage.of(lines));
	}

	/**
	 * A message event whose payload's bytes are built already: copied as they are when
	 * they are one line, else framed as its text.
	 * @param eventId the event id, or {@code null} for none
	 * @param data the payload
	 */
	void message(@Nullable String eventId, EncodedMessage data) {
		if (!copiedAsBytes(data)) {
			message(eventId, data.text());
			return;
		}
		// The message's bytes are shared with every other stream it goes to: copied, not
		// converted again.
		frame((eventId != null) ? idBytes(eventId) : null, NO_SEQUENCE, true, data);
	}

	/**
	 * A message event under the id {@code idPrefix} followed by {@code sequence} in
	 * decimal, whose digits go straight into the frame: this runs once per subscriber and
	 * message.
	 * @param idPrefix the id's first part, in ASCII
	 * @param sequence the id's number, at least 0
	 * @param data the payload
	 */
	void message(byte[] idPrefix, long sequence, EncodedMessage data) {
		if (!copiedAsBytes(data) || sequence < 0) {
			message(new String(idPrefix, StandardCharsets.US_ASCII) + sequence, data);
			return;
		}
		checkId(idPrefix);
		frame(idPrefix, sequence, true, data);
	}

	/**
	 * A priming event: an event id and empty data.
	 * @param eventId the event id
	 */
	void prime(String eventId) {
		message(eventId, "");
	}

	/**
	 * A comment, which clients ignore: a {@code :} line per line of it.
	 * @param comment the comment's text
	 */
	void comment(String comment) {
		String lines = (comment.indexOf('\n') < 0) ? comment : comment.replace("\n", "\n:");
		put((":" + lines + "\n\n").getBytes(StandardCharsets.UTF_8));
	}

	/** The heartbeat comment, {@code :heartbeat}. */
	void heartbeat() {
		put(HEARTBEAT);
	}

	/**
	 * The {@code retry} field: how long a client waits before it reconnects.
	 * @param retry the time
	 */
	void retry(Duration retry) {
		long millis = Math.max(0, retry.toMillis());
		int digits = digits(millis);
		byte[] into = room(RETRY.length + digits + 2);
		int at = put(RETRY, into, this.length);
		at = putDigits(millis, digits, into, at);
		into[at++] = '\n';
		into[at++] = '\n';
		this.length = at;
	}

	private void put(byte[] frame) {
		System.arraycopy(frame, 0, room(frame.length), this.length, frame.length);
		this.length += frame.length;
	}

	/** The array the frames are in, from index 0 to {@link #length()}. */
	byte[] array() {
		return this.bytes;
	}

	int length() {
		return this.length;
	}

	boolean isEmpty() {
		return this.length == 0;
	}

	/** The frames, in an array of their own. */
	byte[] copy() {
		return Arrays.copyOf(this.bytes, this.length);
	}

	/**
	 * Empty again. The array the frames grew into is kept for the next ones unless it is
	 * larger than {@code maxKept}; then the one kept before is.
	 * @param maxKept the largest array kept
	 */
	void clear(int maxKept) {
		if (this.bytes != this.kept && this.bytes.length <= maxKept) {
			this.kept = this.bytes;
		}
		this.bytes = this.kept;
		this.length = 0;
	}

	/**
	 * Whether a message's bytes go into one {@code data} line as they are; a message of
	 * several lines needs a {@code data:} per line, and an empty one is a priming event.
	 */
	private static boolean copiedAsBytes(EncodedMessage data) {
		return data.isSingleLine() && data.length() > 0;
	}

	/** Built as bytes in place: this runs once per subscriber and notification. */
	private void frame(byte @Nullable [] id, long sequence, boolean message, EncodedMessage payload) {
		int sequenceDigits = (sequence != NO_SEQUENCE) ? digits(sequence) : 0;
		int idLine = (id != null) ? ID.length + id.length + sequenceDigits + 1 : 0;
		int frameLength = idLine + (message ? MESSAGE_EVENT_LINE.length : 0) + DATA.length + payload.length() + 2;
		byte[] into = room(frameLength);
		int at = this.length;
		if (id != null) {
			at = put(ID, into, at);
			at = put(id, into, at);
			at = putDigits(sequence, sequenceDigits, into, at);
			into[at++] = '\n';
		}
		if (message) {
			// SSE's default type is "message", but clients such as the MCP Java SDK
			// dispatch only events that name it.
			at = put(MESSAGE_EVENT_LINE, into, at);
		}
		at = put(DATA, into, at);
		at = payload.copyTo(into, at);
		into[at++] = '\n';
		into[at++] = '\n';
		this.length = at;
	}

	/** Room for {@code more} bytes after {@link #length}. */
	private byte[] room(int more) {
		int needed = this.length + more;
		if (this.bytes.length < needed) {
			int size = Math.max(this.bytes.length, 16);
			while (size < needed) {
				size *= 2;
			}
			this.bytes = Arrays.copyOf(this.bytes, size);
		}
		return this.bytes;
	}

	private static byte[] idBytes(String eventId) {
		byte[] id = eventId.getBytes(StandardCharsets.UTF_8);
		checkId(id);
		return id;
	}

	private static void checkId(byte[] id) {
		for (byte b : id) {
			if (b == '\n' || b == '\r' || b == 0) {
				throw new IllegalArgumentException("An SSE event id cannot hold a line break or a NUL");
			}
		}
	}

	private static int put(byte[] part, byte[] into, int at) {
		System.arraycopy(part, 0, into, at, part.length);
		return at + part.length;
	}

	/** How many decimal digits a number of at least 0 has. */
	private static int digits(long value) {
		int digits = 1;
		for (long rest = value / 10; rest > 0; rest /= 10) {
			digits++;
		}
		return digits;
	}

	/** Write a number of at least 0 in decimal, in its {@code digits}. */
	private static int putDigits(long value, int digits, byte[] into, int at) {
		int end = at + digits;
		long rest = value;
		for (int i = end - 1; i >= at; i--) {
			into[i] = (byte) ('0' + (rest % 10));
			rest /= 10;
		}
		return end;
	}

}
