package io.github.mcpsubscriptions.sample.conformance;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.github.mcpsubscriptions.prompt.Prompt;
import io.github.mcpsubscriptions.prompt.PromptDefinition;
import io.github.mcpsubscriptions.prompt.PromptMessage;
import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.prompt.PromptRequest;
import io.github.mcpsubscriptions.prompt.PromptResult;
import io.github.mcpsubscriptions.tool.McpTool;
import io.github.mcpsubscriptions.tool.ToolCall;
import io.github.mcpsubscriptions.tool.ToolDefinition;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import io.github.mcpsubscriptions.tool.ToolResult;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The tools the official MCP conformance suite calls, active only under the Spring
 * profile {@code conformance}, registered with the {@link ToolRegistry} as plain
 * {@link McpTool}s (they need image, audio and embedded-resource content, progress and
 * log messages, which Spring AI's string results cannot carry). Tools that would need
 * sampling, elicitation, input-required rounds or tasks are not here: the server does not
 * offer those features (see the expected failures in {@code .ci/}).
 */
@Component
@Profile("conformance")
public class ConformanceTools {

	static final String DYNAMIC_TOOL = "test_dynamic_tool";

	static final String DYNAMIC_PROMPT = "test_dynamic_prompt";

	/**
	 * The input schema the json-schema-2020-12 scenario expects to find unchanged in
	 * tools/list.
	 */
	static final String JSON_SCHEMA_2020_12 = """
			{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
			 "$defs":{"address":{"$anchor":"addressDef","type":"object",
			   "properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
			 "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},
			   "contactMethod":{"type":"string","enum":["phone","email"]},
			   "phone":{"type":"string"},"email":{"type":"string"}},
			 "allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
			 "if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},
			 "then":{"required":["phone"]},"else":{"required":["email"]},
			 "additionalProperties":false}
			""";

	private static final long STEP_MILLIS = 50;

	private final ToolRegistry registry;

	public ConformanceTools(ToolRegistry registry, PromptRegistry prompts) {
		this.registry = registry;
		tool("test_simple_text", "Returns simple text",
				(call) -> ToolResult.text("This is a simple text response for testing."));
		tool("test_image_content", "Returns an image", (call) -> content(image()));
		tool("test_audio_content", "Returns a short WAV sound",
				(call) -> content(Map.of("type", "audio", "data", wav(), "mimeType", "audio/wav")));
		tool("test_embedded_resource", "Returns an embedded resource", (call) -> content(
				resource("test://embedded-resource", "text/plain", "This is an embedded resource content.")));
		tool("test_multiple_content_types", "Returns text, an image and a resource", (call) -> new ToolResult(
				List.of(ToolResult.textBlock("Multiple content types test:"), image(), resource(
						"test://mixed-content-resource", "application/json", "{\"test\":\"data\",\"value\":123}")),
				null, false));
		tool("test_tool_with_logging", "Sends three log messages while it runs", (call) -> {
			call.progress().log("info", "Tool execution started");
			pause();
			call.progress().log("info", "Tool processing data");
			pause();
			call.progress().log("info", "Tool execution completed");
			return ToolResult.text("Tool with logging executed successfully");
		});
		tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100", (call) -> {
			call.progress().progress(0, 100.0, null);
			pause();
			call.progress().progress(50, 100.0, null);
			pause();
			call.progress().progress(100, 100.0, null);
			return ToolResult.text("Tool with progress executed successfully");
		});
		tool("test_error_handling", "Always fails",
				(call) -> ToolResult.error("This tool intentionally returns an error for testing"));
		tool("test_logging_tool", "Logs one message, sent only when the request names a log level", (call) -> {
			call.progress().log("info", "test_logging_tool ran");
			return ToolResult.text("Logged (if a log level was requested)");
		});
		tool("test_streaming_elicitation",
				"Answers on its response stream without sending requests on it (this server does not elicit)",
				(call) -> ToolResult.text("No elicitation: this server answers directly"));
		this.registry.register(new Tool(
				ToolDefinition.of("test_missing_capability", "Needs the client's sampling capability",
						ToolDefinition.NO_ARGUMENTS),
				Set.of("sampling"), (call) -> ToolResult.text("The client declared sampling")));
		this.registry
			.register(new Tool(ToolDefinition.of("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features",
					JSON_SCHEMA_2020_12), Set.of(), (call) -> ToolResult.text("ok")));
		tool("test_trigger_tool_change", "Adds test_dynamic_tool, or removes it if it is there", (call) -> {
			if (!this.registry.unregister(DYNAMIC_TOOL)) {
				tool(DYNAMIC_TOOL, "A tool added at run time", (inner) -> ToolResult.text("dynamic"));
			}
			return ToolResult.text("The tool list changed");
		});
		tool("test_trigger_prompt_change", "Adds test_dynamic_prompt, or removes it if it is there", (call) -> {
			if (!prompts.unregister(DYNAMIC_PROMPT)) {
				prompts.register(new DynamicPrompt());
			}
			return ToolResult.text("The prompt list changed");
		});
	}

	private void tool(String name, String description, Function<ToolCall, ToolResult> body) {
		this.registry
			.register(new Tool(ToolDefinition.of(name, description, ToolDefinition.NO_ARGUMENTS), Set.of(), body));
	}

	private static ToolResult content(Map<String, Object> block) {
		return new ToolResult(List.of(block), null, false);
	}

	private static Map<String, Object> image() {
		return Map.of("type", "image", "data", ConformanceFixtures.STATIC_BINARY_BASE64, "mimeType", "image/png");
	}

	private static Map<String, Object> resource(String uri, String mimeType, String text) {
		return Map.of("type", "resource", "resource", Map.of("uri", uri, "mimeType", mimeType, "text", text));
	}

	/** A tenth of a second of silence: 8 kHz, 8-bit mono PCM. */
	static String wav() {
		int samples = 800;
		ByteBuffer header = ByteBuffer.allocate(44).order(ByteOrder.LITTLE_ENDIAN);
		header.put("RIFF".getBytes()).putInt(36 + samples).put("WAVE".getBytes());
		header.put("fmt ".getBytes())
			.putInt(16)
			.putShort((short) 1)
			.putShort((short) 1)
			.putInt(8000)
			.putInt(8000)
			.putShort((short) 1)
			.putShort((short) 8);
		header.put("data".getBytes()).putInt(samples);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(header.array());
		for (int i = 0; i < samples; i++) {
			out.write(128);
		}
		return Base64.getEncoder().encodeToString(out.toByteArray());
	}

	private static void pause() {
		// The suite asks for ~50 ms between messages, to see them arrive during the call.
		try {
			Thread.sleep(STEP_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private record Tool(ToolDefinition definition, Set<String> requiredCapabilities,
			Function<ToolCall, ToolResult> body) implements McpTool {

		@Override
		public ToolDefinition getDefinition() {
			return this.definition;
		}

		@Override
		public Set<String> getRequiredClientCapabilities() {
			return this.requiredCapabilities;
		}

		@Override
		public ToolResult call(ToolCall call) {
			return this.body.apply(call);
		}

	}

	/** The prompt {@code test_trigger_prompt_change} adds and removes. */
	private static final class DynamicPrompt implements Prompt {

		@Override
		public PromptDefinition getDefinition() {
			return PromptDefinition.of(DYNAMIC_PROMPT, "A prompt added at run time");
		}

		@Override
		public PromptResult get(PromptRequest request) {
			return PromptResult.of(PromptMessage.user("dynamic"));
		}

	}

}
