package io.github.mcpsubscriptions.notification;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A change of a resource as the dispatcher receives it from the change feed.
 *
 * @param uri the changed resource
 * @param attributes what the client should know about the change
 * @param publishedAt when the change was published, for latency measurement
 * @param position where the change stands in a shared change log, or {@code null} on a
 * single node
 * @since 0.1.0
 */
public record ResourceChange(String uri, Map<String, Object> attributes, Instant publishedAt,
		@Nullable String position) {

	/**
	 * The attribute that says what happened to the resource, as the change sources set it
	 * ({@value #CREATED}, {@value #UPDATED} or {@value #DELETED}); clients see it in the
	 * notification's {@code _meta}.
	 */
	public static final String CHANGE = "change";

	/** The {@link #CHANGE} of a resource that came into being. */
	public static final String CREATED = "created";

	/** The {@link #CHANGE} of a resource that changed. */
	public static final String UPDATED = "updated";

	/** The {@link #CHANGE} of a resource that is gone. */
	public static final String DELETED = "deleted";

	public ResourceChange(String uri, Map<String, Object> attributes, Instant publishedAt) {
		this(uri, attributes, publishedAt, null);
	}

	/**
	 * The change an application's event stands for: the one conversion of a
	 * {@link ResourceChangedEvent}, whichever listener forwards it.
	 * @param event the event
	 * @return the change, published when the event was
	 */
	public static ResourceChange of(ResourceChangedEvent event) {
		return new ResourceChange(event.getUri(), event.getAttributes(), Instant.ofEpochMilli(event.getTimestamp()));
	}

	/**
	 * Whether the resource came or went, rather than changed: the list of resources then
	 * changed too, if it names the resource.
	 * @return whether its {@link #CHANGE} is {@value #CREATED} or {@value #DELETED}
	 */
	public boolean isCreationOrDeletion() {
		Object change = this.attributes.get(CHANGE);
		return CREATED.equals(change) || DELETED.equals(change);
	}

}
