package io.github.mcpsubscriptions.resource;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Hints for clients about a resource.
 *
 * @param audience who the resource is for ({@code "user"}, {@code "assistant"}), or
 * {@code null}
 * @param priority importance from 0 to 1, or {@code null}
 * @param lastModified when it last changed (ISO 8601), or {@code null}
 * @since 0.1.0
 */
public record ResourceAnnotations(@Nullable List<String> audience, @Nullable Double priority,
		@Nullable String lastModified) {

	boolean isEmpty() {
		return this.audience == null && this.priority == null && this.lastModified == null;
	}

}
