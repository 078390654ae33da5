package io.github.mcpsubscriptions.resource;

import org.jspecify.annotations.Nullable;

/**
 * Text contents of a resource.
 *
 * @param uri the URI
 * @param mimeType the MIME type, or {@code null}
 * @param text the text
 * @since 0.1.0
 */
public record TextResourceContents(String uri, @Nullable String mimeType, String text) implements ResourceContents {

}
