package io.github.mcpsubscriptions.springai;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.mcpsubscriptions.prompt.PromptContent;
import io.github.mcpsubscriptions.prompt.PromptMessage;
import io.github.mcpsubscriptions.prompt.PromptResult;
import io.github.mcpsubscriptions.resource.BlobResourceContents;
import io.github.mcpsubscriptions.resource.ResourceAnnotations;
import io.github.mcpsubscriptions.resource.ResourceContents;
import io.github.mcpsubscriptions.resource.TextResourceContents;
import io.github.mcpsubscriptions.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns the MCP Java SDK's result and content types, which Spring AI's callbacks answer
 * with, into this server's own, and the other way for requests. The SDK's records carry
 * their JSON names as Jackson annotations, so a plain mapper writes them as the wire
 * wants them.
 */
final class McpSchemaConversions {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
	};

	private McpSchemaConversions() {
	}

	static String toJson(Object value) {
		return json.writeValueAsString(value);
	}

	static Map<String, Object> readObject(String text) {
		Map<String, Object> map = json.readValue(text, MAP);
		return (map != null) ? map : Map.of();
	}

	/**
	 * The hints of the MCP specification's {@code ToolAnnotations}, nulls left out;
	 * Spring AI's own {@code returnDirect} is not a wire field and stays behind.
	 * @param annotations the SDK's annotations, or {@code null}
	 * @return a JSON object as text, or {@code null} when there is no hint
	 */
	static @Nullable String toolAnnotations(McpSchema.@Nullable ToolAnnotations annotations) {
		if (annotations == null) {
			return null;
		}
		Map<String, Object> hints = new LinkedHashMap<>();
		putIfSet(hints, "title", annotations.title());
		putIfSet(hints, "readOnlyHint", annotations.readOnlyHint());
		putIfSet(hints, "destructiveHint", annotations.destructiveHint());
		putIfSet(hints, "idempotentHint", annotations.idempotentHint());
		putIfSet(hints, "openWorldHint", annotations.openWorldHint());
		return hints.isEmpty() ? null : toJson(hints);
	}

	private static void putIfSet(Map<String, Object> map, String key, @Nullable Object value) {
		if (value != null) {
			map.put(key, value);
		}
	}

	static @Nullable String objectOrNull(@Nullable Map<String, Object> map) {
		return (map == null || map.isEmpty()) ? null : toJson(map);
	}

	static ToolResult toolResult(McpSchema.CallToolResult result) {
		List<Map<String, Object>> content = new ArrayList<>();
		if (result.content() != null) {
			for (McpSchema.Content block : result.content()) {
				Map<String, Object> map = new LinkedHashMap<>();
				// The type first, as the SDK writes it: a Content written as its own
				// class
				// carries no type id.
				map.put("type", block.type());
				map.putAll(json.convertValue(block, MAP));
				content.add(map);
			}
		}
		Object structured = result.structuredContent();
		return new ToolResult(content, (structured != null) ? toJson(structured) : null,
				Boolean.TRUE.equals(result.isError()));
	}

	static List<ResourceContents> contents(McpSchema.@Nullable ReadResourceResult result) {
		if (result == null || result.contents() == null) {
			return List.of();
		}
		return result.contents().stream().map(McpSchemaConversions::contents).toList();
	}

	static ResourceContents contents(McpSchema.ResourceContents contents) {
		if (contents instanceof McpSchema.TextResourceContents text) {
			return new TextResourceContents(text.uri(), text.mimeType(), (text.text() != null) ? text.text() : "");
		}
		if (contents instanceof McpSchema.BlobResourceContents blob) {
			return new BlobResourceContents(blob.uri(), blob.mimeType(), blob.blob());
		}
		throw new IllegalStateException("Unsupported resource contents " + contents.getClass().getName());
	}

	static PromptResult promptResult(McpSchema.GetPromptResult result) {
		List<PromptMessage> messages = new ArrayList<>();
		if (result.messages() != null) {
			for (McpSchema.PromptMessage message : result.messages()) {
				PromptMessage.Role role = (message.role() == McpSchema.Role.ASSISTANT) ? PromptMessage.Role.ASSISTANT
						: PromptMessage.Role.USER;
				messages.add(new PromptMessage(role, promptContent(message.content())));
			}
		}
		return new PromptResult(result.description(), messages);
	}

	private static PromptContent promptContent(McpSchema.Content content) {
		if (content instanceof McpSchema.TextContent text) {
			return PromptContent.text(text.text());
		}
		if (content instanceof McpSchema.ImageContent image) {
			return new PromptContent.Image(image.data(), image.mimeType());
		}
		if (content instanceof McpSchema.AudioContent audio) {
			return new PromptContent.Audio(audio.data(), audio.mimeType());
		}
		if (content instanceof McpSchema.EmbeddedResource resource) {
			return PromptContent.resource(contents(resource.resource()));
		}
		throw new IllegalStateException("Unsupported prompt message content " + content.type());
	}

	static @Nullable ResourceAnnotations annotations(McpSchema.@Nullable Annotations annotations) {
		if (annotations == null) {
			return null;
		}
		List<String> audience = (annotations.audience() != null && !annotations.audience().isEmpty())
				? annotations.audience().stream().map((role) -> role.name().toLowerCase(Locale.ROOT)).toList() : null;
		if (audience == null && annotations.priority() == null && annotations.lastModified() == null) {
			return null;
		}
		return new ResourceAnnotations(audience, annotations.priority(), annotations.lastModified());
	}

}
