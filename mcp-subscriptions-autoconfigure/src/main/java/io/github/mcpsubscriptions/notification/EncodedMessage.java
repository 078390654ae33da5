package io.github.mcpsubscriptions.notification;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * A message as text and as UTF-8 bytes, made of parts that many subscribers share: the
 * same change goes to thousands of streams, and converting it to bytes for each of them
 * cost more than writing it. A message is either one shared part, or the shared text
 * before and after a subscriber's own {@code _meta} entries with those entries (bytes
 * kept with the subscriber) between them.
 *
 * @since 0.1.0
 */
public final class EncodedMessage {

	private final Part head;

	private final @Nullable Part own;

	private final @Nullable Part tail;

	private final int length;

	private volatile @Nullable String text;

	private EncodedMessage(Part head, @Nullable Part own, @Nullable Part tail) {
		this.head = head;
		this.own = own;
		this.tail = tail;
		this.length = head.bytes.length + ((own != null) ? own.bytes.length : 0)
				+ ((tail != null) ? tail.bytes.length : 0);
		this.text = (own == null && tail == null) ? head.text : null;
	}

	/**
	 * A message of one part, converted to bytes now.
	 * @param text the message
	 * @return the message
	 */
	public static EncodedMessage of(String text) {
		return new EncodedMessage(new Part(text), null, null);
	}

	static EncodedMessage of(Part whole) {
		return new EncodedMessage(whole, null, null);
	}

	static EncodedMessage spliced(Part head, Part own, Part tail) {
		return new EncodedMessage(head, own, tail);
	}

	/**
	 * The message as text.
	 * @return the text
	 */
	public String text() {
		String text = this.text;
		if (text == null) {
			text = this.head.text + ((this.own != null) ? this.own.text : "")
					+ ((this.tail != null) ? this.tail.text : "");
			this.text = text;
		}
		return text;
	}

	/**
	 * How many bytes {@link #copyTo} writes.
	 * @return the length in UTF-8
	 */
	public int length() {
		return this.length;
	}

	/**
	 * Whether the message has no line break, so that its bytes can go into one SSE
	 * {@code data} line as they are.
	 * @return whether it is one line
	 */
	public boolean isSingleLine() {
		return this.head.singleLine && (this.own == null || this.own.singleLine)
				&& (this.tail == null || this.tail.singleLine);
	}

	/**
	 * Copy the message's UTF-8 bytes.
	 * @param into where to
	 * @param at the first index to write
	 * @return the index after the last byte written
	 */
	public int copyTo(byte[] into, int at) {
		int next = put(this.head.bytes, into, at);
		if (this.own != null) {
			next = put(this.own.bytes, into, next);
		}
		if (this.tail != null) {
			next = put(this.tail.bytes, into, next);
		}
		return next;
	}

	/** The bytes of its first part, which subscribers share; for tests. */
	byte[] headBytes() {
		return this.head.bytes;
	}

	private static int put(byte[] part, byte[] into, int at) {
		System.arraycopy(part, 0, into, at, part.length);
		return at + part.length;
	}

	@Override
	public String toString() {
		return text();
	}

	/** Text and its UTF-8 bytes, converted once. */
	static final class Part {

		final String text;

		final byte[] bytes;

		final boolean singleLine;

		Part(String text) {
			this.text = text;
			this.bytes = text.getBytes(StandardCharsets.UTF_8);
			this.singleLine = text.indexOf('\n') < 0;
		}

	}

}
