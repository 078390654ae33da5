/**
 * Resources: {@code @McpResource} methods, the resource registry, URI templates and
 * content mapping.
 */
@NullMarked
package io.github.mcpsubscriptions.resource;

import org.jspecify.annotations.NullMarked;
