package io.github.mcpsubscriptions.tester;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A {@code notifications/resources/updated} as a subscriber received it.
 *
 * @param uri the resource that changed
 * @param subscribedUri the subscription that matched, or {@code null} if the server sent
 * none
 * @param meta the notification's {@code _meta}: the change attributes the application
 * published, and the protocol's own entries (such as
 * {@code io.modelcontextprotocol/subscriptionId})
 * @param params the notification's {@code params} as they arrived
 * @param receivedAt when the tester read it from the stream
 * @since 0.1.0
 */
public record McpNotification(String uri, @Nullable String subscribedUri, Map<String, Object> meta, JsonNode params,
		Instant receivedAt) {

	static final String UPDATED = "notifications/resources/updated";

	@SuppressWarnings("unchecked")
	static @Nullable McpNotification from(JsonNode message, Instant receivedAt) {
		if (!UPDATED.equals(message.path("method").asString("")) || !message.path("params").path("uri").isString()) {
			return null;
		}
		JsonNode params = message.get("params");
		JsonNode subscribedUri = params.path("subscribedUri");
		JsonNode meta = params.path("_meta");
		Map<String, Object> metaMap = meta.isObject()
				? Collections.unmodifiableMap(McpTester.json.convertValue(meta, LinkedHashMap.class)) : Map.of();
		return new McpNotification(params.get("uri").stringValue(),
				subscribedUri.isString() ? subscribedUri.stringValue() : null, metaMap, params, receivedAt);
	}

}
