package io.github.mcpsubscriptions.notification;

import java.time.Instant;
import java.util.Map;

/**
 * A change of a resource as the dispatcher receives it from the change feed.
 *
 * @param uri the changed resource
 * @param attributes what the client should know about the change
 * @param publishedAt when the change was published, for latency measurement
 */
public record ResourceChange(String uri, Map<String, Object> attributes, Instant publishedAt) {

}
