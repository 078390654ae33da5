package io.github.mcpsubscriptions.tester;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Polls one event type with its arguments ({@code events/poll} of the Events extension,
 * draft SEP-3415), from the position it was opened at: each {@link #next()} returns what
 * arrived since the previous one and moves the cursor on.
 *
 * @since 0.1.0
 */
public final class McpEventPoll {

	private final McpTester tester;

	private final String name;

	private final Map<String, ?> arguments;

	private String cursor;

	private boolean truncated;

	McpEventPoll(McpTester tester, String name, Map<String, ?> arguments) {
		this.tester = tester;
		this.name = name;
		this.arguments = arguments;
		this.cursor = poll(null).get("cursor").stringValue();
	}

	/**
	 * The payloads ({@code data}) of the events that arrived since the previous poll, in
	 * order; polls again at once while the server says it has more.
	 * @return the payloads
	 * @throws McpErrorException if the server answers with an error
	 */
	public List<JsonNode> next() {
		List<JsonNode> data = new ArrayList<>();
		this.truncated = false;
		JsonNode result;
		do {
			result = poll(this.cursor);
			result.get("events").forEach((event) -> data.add(event.get("data")));
			this.cursor = result.get("cursor").stringValue();
			this.truncated |= result.path("truncated").booleanValue();
		}
		while (result.path("hasMore").booleanValue());
		return data;
	}

	/**
	 * Whether the last {@link #next()} was told that events may have been skipped.
	 * @return whether it was {@code truncated}
	 */
	public boolean wasTruncated() {
		return this.truncated;
	}

	/**
	 * The cursor the next poll sends.
	 * @return the cursor
	 */
	public String cursor() {
		return this.cursor;
	}

	private JsonNode poll(@Nullable String cursor) {
		ObjectNode params = McpTester.json.createObjectNode().put("name", this.name);
		params.set("arguments", McpTester.json.valueToTree(this.arguments));
		if (cursor != null) {
			params.put("cursor", cursor);
		}
		return this.tester.stateless("events/poll", params, null);
	}

}
