package io.github.mcpsubscriptions.notification;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import org.jspecify.annotations.Nullable;

/**
 * Writes notifications in the wire format: {@code uri}, {@code subscribedUri} (the SEP's
 * correlation, unless {@link CorrelationMode#NEVER}) and {@code _meta} with the change's
 * attributes, the resync marker and the subscriber's own entries.
 *
 * @since 0.1.0
 */
final class NotificationEncoder {

	/** The {@code _meta} key that marks a resync notification. */
	public static final String RESYNC_META = "io.github.mcpsubscriptions/resync";

	private final JsonRpcCodec codec;

	private static final String SPLICE_KEY = "io.github.mcpsubscriptions/splice";

	private final CorrelationMode correlation;

	private final String spliceEntry;

	NotificationEncoder(JsonRpcCodec codec, CorrelationMode correlation) {
		this.codec = codec;
		this.correlation = correlation;
		String object = codec.writeAsString(Map.of(SPLICE_KEY, 0));
		this.spliceEntry = object.substring(1, object.length() - 1);
	}

	/**
	 * An encoder that names the subscription for every client ({@code true},
	 * {@link CorrelationMode#ALWAYS}) or for none ({@link CorrelationMode#NEVER}).
	 * @param codec the wire format
	 * @param correlation whether notifications carry {@code subscribedUri}
	 */
	NotificationEncoder(JsonRpcCodec codec, boolean correlation) {
		this(codec, correlation ? CorrelationMode.ALWAYS : CorrelationMode.NEVER);
	}

	CorrelationMode getCorrelation() {
		return this.correlation;
	}

	/**
	 * Whether a subscriber gets one notification per matching subscription.
	 * @param subscriber the subscriber
	 * @return whether its notifications are correlated
	 */
	boolean correlates(Subscriber subscriber) {
		return this.correlation.correlates(subscriber.isCorrelationDeclared());
	}

	/**
	 * Encode a notification for a subscriber. The JSON is built once per notification and
	 * shared: the dispatcher queues one instance for every subscriber of a subscription
	 * URI, and subscribers differ only in their own {@code _meta} entries (none in the
	 * 2025 era, the subscription id in the 2026 era), which are spliced into the shared
	 * text. The bytes are those {@link #encodeFully} writes.
	 * @param notification the notification
	 * @param subscriber who it is for
	 * @return one line of JSON
	 */
	String encode(OutboundNotification notification, Subscriber subscriber) {
		return encodeMessage(notification, subscriber).text();
	}

	/**
	 * Encode a notification for a subscriber as text and UTF-8 bytes, as {@link #encode}
	 * does. What subscribers share is converted to bytes once per notification, their own
	 * entries once per subscriber: a stream copies the bytes rather than converting the
	 * text again for every subscriber.
	 * @param notification the notification
	 * @param subscriber who it is for
	 * @return the message
	 */
	EncodedMessage encodeMessage(OutboundNotification notification, Subscriber subscriber) {
		// What is read here was built ahead (prepare), on another method's path: the JIT
		// compiler follows the paths a method has taken, and the JSON writer on this one
		// would be compiled into every method that delivers a message.
		Encoded encoded = encoded(notification);
		if (!subscriber.hasOwnMeta()) {
			EncodedMessage plain = encoded.plain;
			return (plain != null) ? plain : encodePlain(notification, encoded);
		}
		EncodedMessage.Part fragment = subscriber.getEncodedMeta();
		if (fragment == null) {
			fragment = encodeOwnMeta(subscriber);
		}
		if (fragment.text.isEmpty() || collides(notification, subscriber.getMetaKeys())) {
			return EncodedMessage.of(encodeFully(notification, subscriber.getMeta()));
		}
		EncodedMessage.Part[] spliced = encoded.spliced;
		if (spliced == null) {
			spliced = encodeSpliced(notification, encoded);
		}
		if (spliced.length == 0) {
			return EncodedMessage.of(encodeFully(notification, subscriber.getMeta()));
		}
		return EncodedMessage.spliced(spliced[0], fragment, spliced[1]);
	}

	/**
	 * Encode now what a subscriber's messages add to the notifications: its own
	 * {@code _meta} entries. Called when it registers, so that the JSON writer never runs
	 * for them on a delivery thread (see
	 * {@link #prepare(OutboundNotification, Subscriber)}).
	 * @param subscriber the subscriber
	 */
	void prepare(Subscriber subscriber) {
		if (subscriber.hasOwnMeta()) {
			try {
				encodeOwnMeta(subscriber);
			}
			catch (RuntimeException ex) {
				// The writer meets it again, and reports it, for each notification.
			}
		}
	}

	/**
	 * Encode now what the subscribers of a notification that are like this one share: the
	 * dispatcher calls it as it queues the notification for them, so that a delivery
	 * thread only copies bytes. Encoding on delivery, the first delivery of each change
	 * ran the JSON writer on the path every message takes, and the JIT compiler compiled
	 * the JSON writer into each method of that path, one after another: seconds of a core
	 * while the server warmed up under load (#29).
	 * @param notification the notification
	 * @param like a subscriber it goes to
	 */
	void prepare(OutboundNotification notification, Subscriber like) {
		Encoded encoded = encoded(notification);
		boolean own = like.hasOwnMeta();
		if (encoded.unencodable || (own ? encoded.spliced != null : encoded.plain != null)) {
			return;
		}
		try {
			if (own) {
				encodeSpliced(notification, encoded);
			}
			else {
				encodePlain(notification, encoded);
			}
		}
		catch (RuntimeException ex) {
			// Not once per subscriber on the dispatcher's thread: the writer meets it
			// again,
			// and reports it, for each.
			encoded.unencodable = true;
		}
	}

	private Encoded encoded(OutboundNotification notification) {
		Encoded encoded = notification.encoded();
		if (encoded == null || encoded.encoder != this) {
			encoded = new Encoded(this);
			notification.encoded(encoded);
		}
		return encoded;
	}

	private EncodedMessage encodePlain(OutboundNotification notification, Encoded encoded) {
		EncodedMessage plain = EncodedMessage.of(encodeFully(notification, Map.of()));
		encoded.plain = plain;
		return plain;
	}

	private EncodedMessage.Part[] encodeSpliced(OutboundNotification notification, Encoded encoded) {
		EncodedMessage.Part[] spliced = splice(notification);
		encoded.spliced = spliced;
		return spliced;
	}

	/**
	 * Encode a notification for a subscriber from scratch, every map built and written
	 * anew: what {@link #encode} must equal byte for byte.
	 * @param notification the notification
	 * @param subscriber who it is for
	 * @return one line of JSON
	 */
	String encodeFully(OutboundNotification notification, Subscriber subscriber) {
		return encodeFully(notification, subscriber.getMeta());
	}

	private String encodeFully(OutboundNotification notification, Map<String, Object> own) {
		Map<String, Object> meta = new LinkedHashMap<>(notification.attributes());
		if (notification.resync()) {
			meta.put(RESYNC_META, true);
		}
		meta.putAll(own);
		Map<String, Object> params = new LinkedHashMap<>();
		if (notification.uri() != null) {
			params.put("uri", notification.uri());
		}
		if (this.correlation != CorrelationMode.NEVER && notification.subscribedUri() != null) {
			params.put("subscribedUri", notification.subscribedUri());
		}
		if (!meta.isEmpty()) {
			params.put("_meta", meta);
		}
		return this.codec
			.writeAsString(new JsonRpcNotification(notification.method(), params.isEmpty() ? null : params));
	}

	/**
	 * The text before and after the subscriber's own {@code _meta} entries, which come
	 * last in {@code _meta}, itself last in {@code params}, itself last in the message:
	 * written once with a placeholder entry in their place. Empty when the change's
	 * attributes use the placeholder's key.
	 */
	private EncodedMessage.Part[] splice(OutboundNotification notification) {
		if (notification.attributes().containsKey(SPLICE_KEY)) {
			return new EncodedMessage.Part[0];
		}
		String json = encodeFully(notification, Map.of(SPLICE_KEY, 0));
		int at = json.lastIndexOf(this.spliceEntry);
		if (at < 0) {
			return new EncodedMessage.Part[0];
		}
		return new EncodedMessage.Part[] { new EncodedMessage.Part(json.substring(0, at)),
				new EncodedMessage.Part(json.substring(at + this.spliceEntry.length())) };
	}

	/**
	 * The subscriber's own entries as JSON object members, written once per subscriber.
	 */
	private EncodedMessage.Part encodeOwnMeta(Subscriber subscriber) {
		String object = this.codec.writeAsString(subscriber.getMeta());
		EncodedMessage.Part fragment = new EncodedMessage.Part(
				(object.length() > 2) ? object.substring(1, object.length() - 1) : "");
		subscriber.setEncodedMeta(fragment);
		return fragment;
	}

	/**
	 * Whether a subscriber's own entry would replace one of the notification's. Checked
	 * for every subscriber and notification: over an array, so that it allocates nothing.
	 */
	private static boolean collides(OutboundNotification notification, String[] own) {
		Map<String, Object> attributes = notification.attributes();
		boolean resync = notification.resync();
		if (attributes.isEmpty() && !resync) {
			return false;
		}
		for (String key : own) {
			if (attributes.containsKey(key) || (resync && RESYNC_META.equals(key))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A notification's wire form, kept with it: the message for subscribers without
	 * entries of their own, and the text and bytes around such entries. Each part is
	 * built by the dispatcher as it queues the notification
	 * ({@link #prepare(OutboundNotification, Subscriber)}), else when first needed (a
	 * resync, a kind of subscriber it was not prepared for); two threads may both build
	 * it, with the same result.
	 */
	static final class Encoded {

		private final NotificationEncoder encoder;

		private volatile @Nullable EncodedMessage plain;

		private volatile EncodedMessage.Part @Nullable [] spliced;

		/**
		 * Whether encoding it ahead of delivery failed; the dispatcher's thread's own.
		 */
		private boolean unencodable;

		Encoded(NotificationEncoder encoder) {
			this.encoder = encoder;
		}

	}

}
