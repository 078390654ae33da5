package io.github.mcpsubscriptions.invalidevents;

import io.github.mcpsubscriptions.events.McpEvent;

/**
 * Event types declared wrongly, or twice, outside the packages the events tests' own
 * application scans (where they would fail its start).
 */
public final class InvalidEvents {

	private InvalidEvents() {
	}

	@McpEvent(name = "test.both", delivery = { McpEvent.Delivery.POLL, McpEvent.Delivery.PUSH, McpEvent.Delivery.POLL })
	public record PollAndPush(String text) {
	}

	@McpEvent(name = "test.both")
	public record Duplicate(String text) {
	}

	public record Filter(String text) {
	}

	@McpEvent(name = "test.unmatched", arguments = Filter.class)
	public record Unmatched(String text) {
	}

	@McpEvent(name = "test.no-mode", delivery = {})
	public record NoMode(String text) {
	}

}
