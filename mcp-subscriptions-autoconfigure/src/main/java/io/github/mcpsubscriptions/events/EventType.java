package io.github.mcpsubscriptions.events;

import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A declared event type, its schemas derived once, at start-up.
 *
 * @param name its name
 * @param description what it means
 * @param delivery the delivery modes served, by their wire names, never empty
 * @param eventClass the class of its Spring events
 * @param argumentsType the type of its subscription arguments, or {@code null} for none
 * @param inputSchema the schema of the arguments
 * @param payloadSchema the schema of the payload
 * @param payloadProperties the members of the event class its payload carries
 */
record EventType(String name, String description, List<String> delivery, Class<?> eventClass,
		@Nullable Class<?> argumentsType, JsonNode inputSchema, JsonNode payloadSchema, Set<String> payloadProperties) {

	boolean delivers(String mode) {
		return this.delivery.contains(mode);
	}

}
