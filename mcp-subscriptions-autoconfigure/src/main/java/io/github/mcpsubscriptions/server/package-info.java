/**
 * MCP method dispatch: lifecycle, utilities and resource methods, shared by both protocol
 * eras.
 */
@NullMarked
package io.github.mcpsubscriptions.server;

import org.jspecify.annotations.NullMarked;
