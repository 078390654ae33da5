/**
 * Auto-configuration for MCP resource subscriptions and the {@code mcp.*} properties.
 */
@NullMarked
package io.github.mcpsubscriptions.autoconfigure;

import org.jspecify.annotations.NullMarked;
