package io.github.mcpsubscriptions.notification;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A notification waiting in an {@link Outbox}. Two notifications with the same
 * {@link #key()} are the same news: the newer replaces the older in place.
 *
 * @param method the notification method
 * @param uri the changed resource, or {@code null} for {@code list_changed}
 * @param subscribedUri the subscription that matched, or {@code null}
 * @param attributes the change's attributes
 * @param resync whether this tells the client it may have missed changes and should
 * re-read
 * @param publishedAt when the change was published
 * @param position where the change stands in a shared change log, or {@code null}
 */
public record OutboundNotification(String method, @Nullable String uri, @Nullable String subscribedUri,
		Map<String, Object> attributes, boolean resync, Instant publishedAt, @Nullable String position) {

	public OutboundNotification(String method, @Nullable String uri, @Nullable String subscribedUri,
			Map<String, Object> attributes, boolean resync, Instant publishedAt) {
		this(method, uri, subscribedUri, attributes, resync, publishedAt, null);
	}

	/** The method of resource change notifications. */
	public static final String RESOURCE_UPDATED = "notifications/resources/updated";

	/** The method of resource list change notifications. */
	public static final String LIST_CHANGED = "notifications/resources/list_changed";

	/**
	 * The notification of a change for one matching subscription.
	 * @param change the change
	 * @param subscribedUri the subscription
	 * @return the notification
	 */
	public static OutboundNotification updated(ResourceChange change, String subscribedUri) {
		return new OutboundNotification(RESOURCE_UPDATED, change.uri(), subscribedUri, change.attributes(), false,
				change.publishedAt(), change.position());
	}

	static OutboundNotification resync(String subscribedUri, Instant now) {
		return new OutboundNotification(RESOURCE_UPDATED, subscribedUri, subscribedUri, Map.of(), true, now);
	}

	static OutboundNotification listChanged(Instant now) {
		return new OutboundNotification(LIST_CHANGED, null, null, Map.of(), false, now);
	}

	Key key() {
		return new Key(this.method, this.uri, this.subscribedUri);
	}

	record Key(String method, @Nullable String uri, @Nullable String subscribedUri) {
	}

}
