package io.github.mcpsubscriptions.notification;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A notification waiting in an {@link Outbox}. Two notifications with the same
 * {@link #key()} are the same news: the newer replaces the older in place.
 * <p>
 * A value: equality is by its components. It also carries its wire form once the
 * {@link NotificationEncoder} has built it, so that the one instance the dispatcher
 * queues for every subscriber of a subscription URI is encoded once, not once per
 * subscriber.
 *
 * @since 0.1.0
 */
final class OutboundNotification {

	/** The method of resource change notifications. */
	public static final String RESOURCE_UPDATED = "notifications/resources/updated";

	/** The method of resource list change notifications. */
	public static final String LIST_CHANGED = "notifications/resources/list_changed";

	private final String method;

	private final @Nullable String uri;

	private final @Nullable String subscribedUri;

	private final Map<String, Object> attributes;

	private final boolean resync;

	private final Instant publishedAt;

	private final @Nullable String position;

	/** Built once: a notification shared by thousands of outboxes is keyed by each. */
	private final Key key;

	/** Written by the encoder; a race only builds the same value twice. */
	private volatile NotificationEncoder.@Nullable Encoded encoded;

	/**
	 * Create a notification.
	 * @param method the notification method
	 * @param uri the changed resource, or {@code null} for {@code list_changed}
	 * @param subscribedUri the subscription that matched, or {@code null}
	 * @param attributes the change's attributes
	 * @param resync whether this tells the client it may have missed changes and should
	 * re-read
	 * @param publishedAt when the change was published
	 * @param position where the change stands in a shared change log, or {@code null}
	 */
	OutboundNotification(String method, @Nullable String uri, @Nullable String subscribedUri,
			Map<String, Object> attributes, boolean resync, Instant publishedAt, @Nullable String position) {
		this.method = Objects.requireNonNull(method, "method");
		this.uri = uri;
		this.subscribedUri = subscribedUri;
		this.attributes = Objects.requireNonNull(attributes, "attributes");
		this.resync = resync;
		this.publishedAt = Objects.requireNonNull(publishedAt, "publishedAt");
		this.position = position;
		this.key = new Key(method, uri, subscribedUri);
	}

	OutboundNotification(String method, @Nullable String uri, @Nullable String subscribedUri,
			Map<String, Object> attributes, boolean resync, Instant publishedAt) {
		this(method, uri, subscribedUri, attributes, resync, publishedAt, null);
	}

	/** The method of tool list change notifications. */
	public static final String TOOLS_LIST_CHANGED = "notifications/tools/list_changed";

	/** The method of prompt list change notifications. */
	public static final String PROMPTS_LIST_CHANGED = "notifications/prompts/list_changed";

	/**
	 * The notification of a change for one matching subscription.
	 * @param change the change
	 * @param subscribedUri the subscription
	 * @return the notification
	 */
	static OutboundNotification updated(ResourceChange change, String subscribedUri) {
		return new OutboundNotification(RESOURCE_UPDATED, change.uri(), subscribedUri, change.attributes(), false,
				change.publishedAt(), change.position());
	}

	/**
	 * What an outbox queues after a gap: a marker for one subscription, which the
	 * subscriber's writer turns into the resyncs of {@link #resyncs}.
	 */
	static OutboundNotification resync(String subscribedUri, Instant now) {
		return new OutboundNotification(RESOURCE_UPDATED, subscribedUri, subscribedUri, Map.of(), true, now);
	}

	/**
	 * The resyncs written for a subscription's marker: one {@code updated} per concrete
	 * resource that stands for the subscription, or, when none does, one
	 * {@code list_changed}, so that the gap is never silent and no {@code uri} is a
	 * template or a glob.
	 * @param marker the marker, from {@link #resync(String, Instant)}
	 * @param uris the concrete resources, from {@link ResyncTargets}
	 * @return the notifications to write
	 */
	static List<OutboundNotification> resyncs(OutboundNotification marker, List<String> uris) {
		String subscribedUri = marker.subscribedUri;
		if (uris.isEmpty()) {
			return List
				.of(new OutboundNotification(LIST_CHANGED, null, subscribedUri, Map.of(), true, marker.publishedAt));
		}
		List<OutboundNotification> resyncs = new ArrayList<>(uris.size());
		for (String uri : uris) {
			resyncs.add(
					new OutboundNotification(RESOURCE_UPDATED, uri, subscribedUri, Map.of(), true, marker.publishedAt));
		}
		return resyncs;
	}

	static OutboundNotification listChanged(Instant now) {
		return new OutboundNotification(LIST_CHANGED, null, null, Map.of(), false, now);
	}

	static OutboundNotification toolListChanged(Instant now) {
		return new OutboundNotification(TOOLS_LIST_CHANGED, null, null, Map.of(), false, now);
	}

	static OutboundNotification promptListChanged(Instant now) {
		return new OutboundNotification(PROMPTS_LIST_CHANGED, null, null, Map.of(), false, now);
	}

	static OutboundNotification extensionListChanged(String method, Instant now) {
		return new OutboundNotification(method, null, null, Map.of(), false, now);
	}

	/**
	 * The notification method.
	 * @return the method
	 */
	String method() {
		return this.method;
	}

	/**
	 * The changed resource.
	 * @return the URI, or {@code null} for {@code list_changed}
	 */
	@Nullable String uri() {
		return this.uri;
	}

	/**
	 * The subscription that matched.
	 * @return its URI, or {@code null}
	 */
	@Nullable String subscribedUri() {
		return this.subscribedUri;
	}

	/**
	 * The change's attributes.
	 * @return the attributes
	 */
	Map<String, Object> attributes() {
		return this.attributes;
	}

	/**
	 * Whether this tells the client it may have missed changes and should re-read.
	 * @return whether it is a resync
	 */
	boolean resync() {
		return this.resync;
	}

	/**
	 * When the change was published.
	 * @return the time
	 */
	Instant publishedAt() {
		return this.publishedAt;
	}

	/**
	 * Where the change stands in a shared change log.
	 * @return the position, or {@code null}
	 */
	@Nullable String position() {
		return this.position;
	}

	Key key() {
		return this.key;
	}

	NotificationEncoder.@Nullable Encoded encoded() {
		return this.encoded;
	}

	void encoded(NotificationEncoder.Encoded encoded) {
		this.encoded = encoded;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		return other instanceof OutboundNotification that && this.resync == that.resync
				&& this.method.equals(that.method) && Objects.equals(this.uri, that.uri)
				&& Objects.equals(this.subscribedUri, that.subscribedUri) && this.attributes.equals(that.attributes)
				&& this.publishedAt.equals(that.publishedAt) && Objects.equals(this.position, that.position);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.method, this.uri, this.subscribedUri, this.attributes, this.resync, this.publishedAt,
				this.position);
	}

	@Override
	public String toString() {
		return "OutboundNotification[method=" + this.method + ", uri=" + this.uri + ", subscribedUri="
				+ this.subscribedUri + ", attributes=" + this.attributes + ", resync=" + this.resync + ", publishedAt="
				+ this.publishedAt + ", position=" + this.position + "]";
	}

	/**
	 * What makes two notifications the same news. Its hash is computed once: every outbox
	 * a notification goes to hashes its key at least twice.
	 */
	static final class Key {

		private final String method;

		private final @Nullable String uri;

		private final @Nullable String subscribedUri;

		private final int hash;

		Key(String method, @Nullable String uri, @Nullable String subscribedUri) {
			this.method = method;
			this.uri = uri;
			this.subscribedUri = subscribedUri;
			this.hash = Objects.hash(method, uri, subscribedUri);
		}

		@Nullable String subscribedUri() {
			return this.subscribedUri;
		}

		@Override
		public boolean equals(@Nullable Object other) {
			if (this == other) {
				return true;
			}
			return other instanceof Key that && this.hash == that.hash && this.method.equals(that.method)
					&& Objects.equals(this.uri, that.uri) && Objects.equals(this.subscribedUri, that.subscribedUri);
		}

		@Override
		public int hashCode() {
			return this.hash;
		}

		@Override
		public String toString() {
			return "Key[method=" + this.method + ", uri=" + this.uri + ", subscribedUri=" + this.subscribedUri + "]";
		}

	}

}
