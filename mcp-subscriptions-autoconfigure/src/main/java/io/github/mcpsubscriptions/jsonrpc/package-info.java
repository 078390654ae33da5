/**
 * JSON-RPC 2.0 messages, error codes and the private wire-format mapper.
 */
@NullMarked
package io.github.mcpsubscriptions.jsonrpc;

import org.jspecify.annotations.NullMarked;
