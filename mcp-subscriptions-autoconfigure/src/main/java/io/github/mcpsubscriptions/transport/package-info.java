/**
 * The MCP HTTP endpoint: request validation, protocol-era routing and SSE streams.
 */
@NullMarked
package io.github.mcpsubscriptions.transport;

import org.jspecify.annotations.NullMarked;
