package io.github.mcpsubscriptions.notification;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;

/**
 * Writes notifications in the wire format: {@code uri}, {@code subscribedUri} (the SEP's
 * correlation, unless {@link CorrelationMode#NEVER}) and {@code _meta} with the change's
 * attributes, the resync marker and the subscriber's own entries.
 */
public final class NotificationEncoder {

	/** The {@code _meta} key that marks a resync notification. */
	public static final String RESYNC_META = "io.github.mcpsubscriptions/resync";

	private final JsonRpcCodec codec;

	private final CorrelationMode correlation;

	public NotificationEncoder(JsonRpcCodec codec, CorrelationMode correlation) {
		this.codec = codec;
		this.correlation = correlation;
	}

	/**
	 * An encoder that names the subscription for every client ({@code true},
	 * {@link CorrelationMode#ALWAYS}) or for none ({@link CorrelationMode#NEVER}).
	 * @param codec the wire format
	 * @param correlation whether notifications carry {@code subscribedUri}
	 */
	public NotificationEncoder(JsonRpcCodec codec, boolean correlation) {
		this(codec, correlation ? CorrelationMode.ALWAYS : CorrelationMode.NEVER);
	}

	public CorrelationMode getCorrelation() {
		return this.correlation;
	}

	/**
	 * Whether a subscriber gets one notification per matching subscription.
	 * @param subscriber the subscriber
	 * @return whether its notifications are correlated
	 */
	public boolean correlates(Subscriber subscriber) {
		return this.correlation.correlates(subscriber.isCorrelationDeclared());
	}

	/**
	 * Encode a notification for a subscriber.
	 * @param notification the notification
	 * @param subscriber who it is for
	 * @return one line of JSON
	 */
	public String encode(OutboundNotification notification, Subscriber subscriber) {
		Map<String, Object> meta = new LinkedHashMap<>(notification.attributes());
		if (notification.resync()) {
			meta.put(RESYNC_META, true);
		}
		meta.putAll(subscriber.getMeta());
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
		return this.codec.writeAsString(new JsonRpcNotification(notification.method(), params.isEmpty() ? null : params));
	}

}
