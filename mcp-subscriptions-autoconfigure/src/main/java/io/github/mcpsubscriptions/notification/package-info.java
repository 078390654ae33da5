/**
 * Server-to-client messages: the streams they are written to, change events and their
 * delivery.
 */
@NullMarked
package io.github.mcpsubscriptions.notification;

import org.jspecify.annotations.NullMarked;
