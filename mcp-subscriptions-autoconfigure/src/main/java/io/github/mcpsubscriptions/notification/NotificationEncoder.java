package io.github.mcpsubscriptions.notification;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;

/**
 * Writes notifications in the wire format: {@code uri}, {@code subscribedUri} (the SEP's
 * correlation, unless turned off) and {@code _meta} with the change's attributes, the
 * resync marker and the subscriber's own entries.
 */
public final class NotificationEncoder {

	/** The {@code _meta} key that marks a resync notification. */
	public static final String RESYNC_META = "io.github.mcpsubscriptions/resync";

	private final JsonRpcCodec codec;

	private final boolean correlation;

	public NotificationEncoder(JsonRpcCodec codec, boolean correlation) {
		this.codec = codec;
		this.correlation = correlation;
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
		if (this.correlation && notification.subscribedUri() != null) {
			params.put("subscribedUri", notification.subscribedUri());
		}
		if (!meta.isEmpty()) {
			params.put("_meta", meta);
		}
		return this.codec.writeAsString(new JsonRpcNotification(notification.method(), params.isEmpty() ? null : params));
	}

}
