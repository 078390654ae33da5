/**
 * 2025-era MCP sessions: creation, lookup, idle expiry and their node-local streams.
 */
@NullMarked
package io.github.mcpsubscriptions.session;

import org.jspecify.annotations.NullMarked;
