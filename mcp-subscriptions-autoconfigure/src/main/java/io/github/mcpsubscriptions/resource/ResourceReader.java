package io.github.mcpsubscriptions.resource;

import org.jspecify.annotations.Nullable;

/**
 * Reads a resource.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ResourceReader {

	/**
	 * Read a resource.
	 * @param request the URI and template variables
	 * @return the contents (any return value an {@link McpResource} method may have), or
	 * {@code null} if the resource does not exist
	 * @throws Exception if reading fails; the client is told of an internal error only
	 */
	@Nullable Object read(ResourceRequest request) throws Exception;

}
