package io.github.mcpsubscriptions.resource;

import org.jspecify.annotations.Nullable;

/**
 * Text contents of a resource.
 *
 * @param uri the URI
 * @param mimeType the MIME type, or {@code null}
 * @param text the text
 */
public record TextResourceContents(String uri, @Nullable String mimeType, String text) implements ResourceContents {

}
