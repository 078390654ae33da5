package io.github.mcpsubscriptions.eventsfixture;

import io.github.mcpsubscriptions.events.McpEvent;
import io.github.mcpsubscriptions.events.McpEvent.Delivery;

/**
 * An event type that tests register at run time: outside the packages scanned at
 * start-up.
 *
 * @param number its number
 */
@McpEvent(name = "test.dynamic.happened", description = "Something dynamic happened",
		delivery = { Delivery.PUSH, Delivery.POLL })
public record DynamicHappened(int number) {
}
