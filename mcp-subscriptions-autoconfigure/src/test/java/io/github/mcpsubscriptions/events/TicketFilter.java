package io.github.mcpsubscriptions.events;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@link TicketOpened}.
 *
 * @param queue only this queue's tickets; all when {@code null}
 */
record TicketFilter(@Nullable String queue) {
}
