package io.github.mcpsubscriptions.events;

import io.github.mcpsubscriptions.events.McpEvent.Delivery;

/**
 * An alert was raised: an event type offered by push (and poll).
 *
 * @param number the alert's number
 * @param level its level
 */
@McpEvent(name = "test.alert.raised", description = "An alert was raised", delivery = { Delivery.PUSH, Delivery.POLL },
		arguments = AlertFilter.class)
record AlertRaised(int number, String level) implements McpEventMatcher<AlertFilter> {

	@Override
	public boolean matches(AlertFilter filter) {
		return filter.level() == null || filter.level().equals(this.level);
	}

}
