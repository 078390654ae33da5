package io.github.mcpsubscriptions.events;

import io.github.mcpsubscriptions.events.McpEvent.Delivery;

/**
 * A ticket was opened: an event type offered by poll and by webhook.
 *
 * @param number the ticket's number
 * @param queue its queue
 */
@McpEvent(name = "test.ticket.opened", description = "A support ticket was opened",
		delivery = { Delivery.POLL, Delivery.WEBHOOK }, arguments = TicketFilter.class)
record TicketOpened(int number, String queue) implements McpEventMatcher<TicketFilter> {

	@Override
	public boolean matches(TicketFilter filter) {
		return filter.queue() == null || filter.queue().equals(this.queue);
	}

}
