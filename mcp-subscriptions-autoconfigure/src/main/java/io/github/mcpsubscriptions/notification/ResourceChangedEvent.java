package io.github.mcpsubscriptions.notification;

import java.util.Map;

import org.springframework.context.ApplicationEvent;

/**
 * Publish this when a resource changed: every subscription that covers the URI is told
 * with {@code notifications/resources/updated}. Published inside a transaction, it is
 * delivered after commit, and not at all on rollback.
 * <p>
 * The attributes (a version, a timestamp, a size, a checksum: whatever helps clients)
 * travel in the notification's {@code _meta}.
 *
 * @since 0.1.0
 */
public class ResourceChangedEvent extends ApplicationEvent {

	private final String uri;

	private final Map<String, Object> attributes;

	/**
	 * A change without attributes.
	 * @param uri the changed resource's URI
	 */
	public ResourceChangedEvent(String uri) {
		this(uri, uri, Map.of());
	}

	/**
	 * A change with attributes.
	 * @param uri the changed resource's URI
	 * @param attributes what the client should know about the change
	 */
	public ResourceChangedEvent(String uri, Map<String, ?> attributes) {
		this(uri, uri, attributes);
	}

	/**
	 * A change with attributes and an explicit event source.
	 * @param source the object that published the event
	 * @param uri the changed resource's URI
	 * @param attributes what the client should know about the change
	 */
	public ResourceChangedEvent(Object source, String uri, Map<String, ?> attributes) {
		super(source);
		if (uri == null || uri.isEmpty()) {
			throw new IllegalArgumentException("A ResourceChangedEvent needs the changed resource's URI");
		}
		this.uri = uri;
		this.attributes = Map.copyOf(attributes);
	}

	public String getUri() {
		return this.uri;
	}

	public Map<String, Object> getAttributes() {
		return this.attributes;
	}

}
