/**
 * The Spring Security integration: the resources' rules ({@code @PreAuthorize} on
 * {@code @McpResource} methods) decide reads, listings, subscriptions and every delivery,
 * and the MCP endpoint is an OAuth 2.1 resource server.
 */
@NullMarked
package io.github.mcpsubscriptions.security;

import org.jspecify.annotations.NullMarked;
