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
 */
public record ResourceChange(String uri, Map<String, Object> attributes, Instant publishedAt,
		@Nullable String position) {

	public ResourceChange(String uri, Map<String, Object> attributes, Instant publishedAt) {
		this(uri, attributes, publishedAt, null);
	}

}
