package io.github.mcpsubscriptions.tester;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The {@code result} of a request: of {@code resources/read}, {@code resources/list} or
 * {@code tools/call}.
 *
 * @since 0.1.0
 */
public final class McpResult {

	private final JsonNode result;

	McpResult(JsonNode result) {
		this.result = result;
	}

	/**
	 * The result as the server sent it.
	 * @return the JSON
	 */
	public JsonNode json() {
		return this.result;
	}

	/**
	 * The text of the first item: the first of a read's {@code contents}, or of a tool
	 * call's {@code content}.
	 * @return the text, or {@code null} if the first item has none (or there is no item)
	 */
	public @Nullable String text() {
		JsonNode first = items().path(0).path("text");
		return first.isString() ? first.stringValue() : null;
	}

	/**
	 * The {@code uri} of every item: the listed resources of {@code resources/list}, or
	 * the contents of {@code resources/read}.
	 * @return the URIs in the order the server sent them
	 */
	public List<String> uris() {
		List<String> uris = new ArrayList<>();
		for (JsonNode item : items()) {
			if (item.path("uri").isString()) {
				uris.add(item.path("uri").stringValue());
			}
		}
		return uris;
	}

	/**
	 * Whether a tool call reports an error ({@code isError}).
	 * @return {@code true} if it does
	 */
	public boolean isError() {
		return this.result.path("isError").asBoolean(false);
	}

	private JsonNode items() {
		for (String name : new String[] { "contents", "content", "resources" }) {
			if (this.result.path(name).isArray()) {
				return this.result.path(name);
			}
		}
		return this.result.path("contents");
	}

	@Override
	public String toString() {
		return this.result.toString();
	}

}
