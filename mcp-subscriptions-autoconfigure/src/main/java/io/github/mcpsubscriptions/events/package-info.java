/**
 * Events: the MCP Events extension ({@code io.modelcontextprotocol/events}), as its draft
 * SEP-3415 of 2026-10-05 describes it, for protocol 2026-07-28. An application declares
 * an event type with {@link io.github.mcpsubscriptions.events.McpEvent} on the class of a
 * Spring event it publishes; clients list the types with {@code events/list} and poll
 * them with {@code events/poll}. Only the annotation and the interfaces an application
 * implements are public; the wire format lives in one class, so that a revision of the
 * draft is one class's change.
 */
@NullMarked
package io.github.mcpsubscriptions.events;

import org.jspecify.annotations.NullMarked;
