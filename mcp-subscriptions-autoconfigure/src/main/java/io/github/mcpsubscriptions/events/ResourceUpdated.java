package io.github.mcpsubscriptions.events;

import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.github.mcpsubscriptions.subscription.CoverageRules;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The event type {@code resource.updated} (the draft's open question 2): a resource
 * changed. Its argument {@code uri} is anything {@code resources/subscribe} accepts (a
 * URI, a collection, a template, a glob), matched by the subscriptions' own rules
 * ({@link CoverageRules}); its payload is the params of
 * {@code notifications/resources/updated}. So a resource subscription gains poll, cursors
 * and replay. Not {@code mcp.resource.updated}: the draft does not reserve the
 * {@code mcp.} prefix yet.
 *
 * @param uri the changed resource
 * @param meta what the change says about itself (its attributes), as the notification's
 * {@code _meta}
 */
record ResourceUpdated(String uri,
		@JsonProperty("_meta") @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Object> meta)
		implements
			McpEventMatcher<ResourceUpdated.Arguments> {

	static final String NAME = "resource.updated";

	static final EventType TYPE = new EventType(NAME,
			"A resource changed: what notifications/resources/updated says, for every change a resource "
					+ "subscription to the uri argument would be told of",
			List.of(McpEvent.Delivery.POLL.wireName(), McpEvent.Delivery.PUSH.wireName()), ResourceUpdated.class,
			Arguments.class, inputSchema(), payloadSchema(), Set.of("uri", "_meta"));

	@Override
	public boolean matches(Arguments arguments) {
		return CoverageRules.covers(arguments.uri(), this.uri);
	}

	@Override
	public Object payload(Arguments arguments) {
		return new Updated(this.uri, arguments.uri(), this.meta);
	}

	private static ObjectNode inputSchema() {
		ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
		schema.putObject("properties")
			.putObject("uri")
			.put("type", "string")
			.put("description", "What resources/subscribe accepts: a URI, a collection, a URI template or a glob");
		schema.putArray("required").add("uri");
		schema.put("additionalProperties", false);
		return schema;
	}

	private static ObjectNode payloadSchema() {
		ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
		ObjectNode properties = schema.putObject("properties");
		properties.putObject("uri").put("type", "string");
		properties.putObject("subscribedUri").put("type", "string");
		properties.putObject("_meta").put("type", "object");
		schema.putArray("required").add("uri").add("subscribedUri");
		return schema;
	}

	/**
	 * The arguments of {@code resource.updated}.
	 *
	 * @param uri the subscription's URI
	 */
	record Arguments(String uri) {
	}

	/**
	 * What a subscription receives: the params of
	 * {@code notifications/resources/updated}.
	 *
	 * @param uri the changed resource
	 * @param subscribedUri the subscription's URI
	 * @param meta the change's attributes
	 */
	record Updated(String uri, String subscribedUri,
			@JsonProperty("_meta") @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Object> meta) {
	}

}
