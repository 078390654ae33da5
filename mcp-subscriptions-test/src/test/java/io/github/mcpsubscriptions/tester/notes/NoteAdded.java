package io.github.mcpsubscriptions.tester.notes;

import io.github.mcpsubscriptions.events.McpEvent;
import io.github.mcpsubscriptions.events.McpEvent.Delivery;

/**
 * A note was added: an event type offered by poll and by webhook.
 *
 * @param id the note's id
 * @param text its text
 */
@McpEvent(name = "notes.note.added", description = "A note was added", delivery = { Delivery.POLL, Delivery.WEBHOOK })
public record NoteAdded(long id, String text) {
}
