package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.util.List;

import io.github.mcpsubscriptions.events.EventLog.LoggedEvent;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.tool.InputValidator;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A subscription's arguments and what it receives of an event: the same for every
 * delivery mode (poll, webhook), so that a subscription's arguments mean one thing.
 */
final class EventMatching {

	private static final Log logger = LogFactory.getLog(EventMatching.class);

	private EventMatching() {
	}

	/**
	 * What a subscription receives of an event, if anything: matched with its arguments,
	 * allowed for its principal, transformed.
	 * @param policy the access policy
	 * @param codec the codec a transformed payload is written with
	 * @param type the event's type
	 * @param event the event as logged
	 * @param arguments the subscription's bound arguments, {@code null} for a type
	 * without
	 * @param principal the subscription's principal
	 * @return the payload, or {@code null} if the subscription does not receive it
	 */
	static @Nullable JsonNode deliverable(McpEventAccessPolicy policy, JsonRpcCodec codec, EventType type,
			LoggedEvent event, @Nullable Object arguments, @Nullable Principal principal) {
		try {
			if (!policy.canReceive(principal, type.name(), event.event())) {
				return null;
			}
			if (arguments == null) {
				return event.data();
			}
			@SuppressWarnings("unchecked")
			McpEventMatcher<Object> matcher = (McpEventMatcher<Object>) event.event();
			if (!matcher.matches(arguments)) {
				return null;
			}
			Object payload = matcher.payload(arguments);
			return (payload == event.event()) ? event.data() : EventRecorder.payload(type, payload, codec);
		}
		catch (RuntimeException ex) {
			// One event's failing matcher must not stall every subscription behind it.
			logger.warn(
					"The MCP event " + event.eventId() + " of " + type.name() + " could not be matched and was skipped",
					ex);
			return null;
		}
	}

	/**
	 * A request's {@code arguments}, an empty object when absent.
	 * @param codec the codec
	 * @param node the member as sent
	 * @return the arguments
	 */
	static JsonNode argumentsNode(JsonRpcCodec codec, @Nullable JsonNode node) {
		if (node != null && !node.isNull() && !node.isObject()) {
			throw EventsWire.invalidParams("\"arguments\" must be an object");
		}
		return (node == null || node.isNull()) ? codec.createObjectNode() : node;
	}

	/**
	 * Validate arguments against the type's {@code inputSchema} and bind them.
	 * @param codec the codec
	 * @param type the type
	 * @param arguments the arguments
	 * @return the bound arguments, {@code null} for a type without
	 */
	static @Nullable Object bind(JsonRpcCodec codec, EventType type, JsonNode arguments) {
		List<String> problems = InputValidator.validate(type.inputSchema(), arguments);
		if (!problems.isEmpty()) {
			throw EventsWire.invalidArguments(type.name(), problems);
		}
		if (type.argumentsType() == null) {
			return null;
		}
		try {
			return codec.bind(arguments, type.argumentsType());
		}
		catch (JsonRpcException ex) {
			throw EventsWire.invalidArguments(type.name(), List.of(ex.getMessage()));
		}
	}

}
