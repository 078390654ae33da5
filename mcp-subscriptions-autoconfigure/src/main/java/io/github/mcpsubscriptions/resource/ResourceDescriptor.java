package io.github.mcpsubscriptions.resource;

import org.jspecify.annotations.Nullable;

/**
 * A concrete resource as {@code resources/list} shows it: a static resource, or one
 * listed instance of a template.
 *
 * @param uri the URI
 * @param name the name
 * @param title the title, or {@code null}
 * @param description the description, or {@code null}
 * @param mimeType the MIME type, or {@code null}
 * @param annotations hints for clients, or {@code null}
 * @param size the size in bytes, or {@code null}
 * @since 0.1.0
 */
public record ResourceDescriptor(String uri, String name, @Nullable String title, @Nullable String description,
		@Nullable String mimeType, @Nullable ResourceAnnotations annotations, @Nullable Long size) {

}
