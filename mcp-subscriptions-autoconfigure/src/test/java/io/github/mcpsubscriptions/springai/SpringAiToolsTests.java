package io.github.mcpsubscriptions.springai;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import io.github.mcpsubscriptions.tool.McpTool;
import io.github.mcpsubscriptions.tool.ToolCall;
import io.github.mcpsubscriptions.tool.ToolDefinition;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import io.github.mcpsubscriptions.tool.ToolResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.ai.tool.function.FunctionToolCallback;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring AI tools served over a real port in both eras: listed with their schemas and
 * paged, called with validated arguments, their failures told to the model as tool
 * errors, and only an unknown tool answered with a protocol error.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = { McpTestApplication.class, SpringAiToolsTests.Tools.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.tools.page-size=2", "mcp.resources.cache.ttl=15s" })
class SpringAiToolsTests {

	@LocalServerPort
	private int port;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private ToolRegistry tools;

	private static final Duration WAIT = Duration.ofSeconds(10);

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void sessionAdvertisesToolsWithListChanged() throws Exception {
		HttpResponse<String> response = this.client.post(this.client.initializeBody("2025-11-25"));
		JsonNode tools = json(response.body()).get("result").get("capabilities").get("tools");
		assertThat(tools.get("listChanged").booleanValue()).isTrue();
	}

	@Test
	void discoverAdvertisesTools() throws Exception {
		JsonNode result = json(this.client.stateless("server/discover", "").body()).get("result");
		assertThat(result.get("capabilities").has("tools")).isTrue();
	}

	@Test
	void listsEveryToolPagedWithItsSchemaInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		assertThat(allTools((cursor) -> json(
				this.client.call(session, "tools/list", (cursor != null) ? "{\"cursor\":\"" + cursor + "\"}" : null)
					.body())
			.get("result"))).containsExactly("ask_model", "divide", "fail", "find_products", "price_quote", "report");
		assertThat(allTools((cursor) -> json(
				this.client.stateless("tools/list", (cursor != null) ? "\"cursor\":\"" + cursor + "\"" : "").body())
			.get("result"))).containsExactly("ask_model", "divide", "fail", "find_products", "price_quote", "report");
		JsonNode first = json(this.client.call(session, "tools/list", "{\"cursor\":\"" + cursorAt(3) + "\"}").body())
			.get("result")
			.get("tools")
			.get(0);
		assertThat(first.get("description").stringValue()).isEqualTo("Find products whose name contains the text");
		assertThat(first.get("inputSchema").get("type").stringValue()).isEqualTo("object");
		assertThat(first.get("inputSchema").get("properties").has("query")).isTrue();
		assertThat(first.get("inputSchema").get("required")).extracting(JsonNode::stringValue).contains("query");
	}

	@Test
	void statelessListCarriesCachingHints() throws Exception {
		JsonNode result = json(this.client.stateless("tools/list", "").body()).get("result");
		assertThat(result.get("resultType").stringValue()).isEqualTo("complete");
		assertThat(result.get("ttlMs").longValue()).isEqualTo(15_000);
		assertThat(result.get("cacheScope").stringValue()).isEqualTo("private");
	}

	@Test
	void callsAToolInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode result = json(this.client
			.call(session, "tools/call", "{\"name\":\"find_products\",\"arguments\":{\"query\":\"lamp\"}}")
			.body()).get("result");
		assertThat(result.get("content").get(0).get("type").stringValue()).isEqualTo("text");
		assertThat(result.get("content").get(0).get("text").stringValue()).isEqualTo("found: desk lamp");
		assertThat(result.has("isError")).isFalse();
		JsonNode stateless = json(
				this.client.stateless("tools/call", "\"name\":\"divide\",\"arguments\":{\"dividend\":7,\"divisor\":2}")
					.body())
			.get("result");
		assertThat(stateless.get("resultType").stringValue()).isEqualTo("complete");
		assertThat(stateless.get("content").get(0).get("text").stringValue()).isEqualTo("3.5");
		assertThat(stateless.has("ttlMs")).as("a call result is not cacheable").isFalse();
	}

	@Test
	void invalidArgumentsAreAToolErrorTheModelCanRead() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode missing = json(
				this.client.call(session, "tools/call", "{\"name\":\"find_products\",\"arguments\":{}}").body())
			.get("result");
		assertThat(missing.get("isError").booleanValue()).isTrue();
		assertThat(missing.get("content").get(0).get("text").stringValue()).contains("find_products")
			.contains("\"query\" is required");
		JsonNode wrongType = json(this.client
			.stateless("tools/call", "\"name\":\"divide\",\"arguments\":{\"dividend\":\"seven\",\"divisor\":2}")
			.body()).get("result");
		assertThat(wrongType.get("isError").booleanValue()).isTrue();
		assertThat(wrongType.get("content").get(0).get("text").stringValue())
			.contains("$.dividend: expected number, got a string");
		JsonNode notAnObject = json(
				this.client.call(session, "tools/call", "{\"name\":\"divide\",\"arguments\":[1,2]}").body())
			.get("result");
		assertThat(notAnObject.get("isError").booleanValue()).isTrue();
	}

	@Test
	void unknownToolIsInvalidParamsInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode error = json(this.client.call(session, "tools/call", "{\"name\":\"nope\",\"arguments\":{}}").body())
			.get("error");
		assertThat(error.get("code").intValue()).isEqualTo(-32602);
		assertThat(error.get("message").stringValue()).isEqualTo("Unknown tool: nope");
		JsonNode stateless = json(this.client.stateless("tools/call", "\"name\":\"nope\"").body()).get("error");
		assertThat(stateless.get("code").intValue()).isEqualTo(-32602);
		JsonNode missingName = json(this.client.call(session, "tools/call", "{\"arguments\":{}}").body()).get("error");
		assertThat(missingName.get("code").intValue()).isEqualTo(-32602);
	}

	@Test
	void anExceptionInAToolIsAToolErrorWithASafeMessage(CapturedOutput output) throws Exception {
		String session = this.client.initialize("2025-11-25");
		HttpResponse<String> response = this.client.call(session, "tools/call", "{\"name\":\"fail\",\"arguments\":{}}");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode result = json(response.body()).get("result");
		assertThat(result.get("isError").booleanValue()).isTrue();
		assertThat(result.get("content").get(0).get("text").stringValue()).contains("'fail' failed");
		assertThat(response.body()).doesNotContain("s3cr3t").doesNotContain("Exception");
		// The details are for the operator.
		assertThat(output).contains("ERROR").contains("MCP tool 'fail' failed").contains("s3cr3t database password");
	}

	@Test
	void structuredContentWhenTheToolDeclaresAnOutputSchema() throws Exception {
		JsonNode list = json(this.client.stateless("tools/list", "\"cursor\":\"" + cursorAt(3) + "\"").body())
			.get("result");
		JsonNode quote = list.get("tools").get(1);
		assertThat(quote.get("name").stringValue()).isEqualTo("price_quote");
		assertThat(quote.get("title").stringValue()).isEqualTo("Price quote");
		assertThat(quote.get("outputSchema").get("required").get(0).stringValue()).isEqualTo("price");
		JsonNode result = json(this.client.stateless("tools/call", "\"name\":\"price_quote\",\"arguments\":{}").body())
			.get("result");
		assertThat(result.get("structuredContent").get("price").intValue()).isEqualTo(42);
		assertThat(json(result.get("content").get(0).get("text").stringValue()).get("price").intValue()).isEqualTo(42);
		JsonNode plain = json(
				this.client.stateless("tools/call", "\"name\":\"find_products\",\"arguments\":{\"query\":\"x\"}")
					.body())
			.get("result");
		assertThat(plain.has("structuredContent")).as("no output schema, no structured content").isFalse();
	}

	@Test
	void countsCallsByToolAndOutcomeWithoutTheArguments() throws Exception {
		double before = calls("divide", "success");
		double invalidBefore = calls("divide", "invalid_arguments");
		double failedBefore = calls("fail", "exception");
		long timedBefore = this.meters.get("mcp.tools.duration").tag("tool", "divide").timer().count();
		this.client.stateless("tools/call", "\"name\":\"divide\",\"arguments\":{\"dividend\":1,\"divisor\":4}");
		this.client.stateless("tools/call", "\"name\":\"divide\",\"arguments\":{\"dividend\":1}");
		this.client.stateless("tools/call", "\"name\":\"fail\",\"arguments\":{}");
		this.client.stateless("tools/call", "\"name\":\"nope\",\"arguments\":{}");
		assertThat(calls("divide", "success")).isEqualTo(before + 1);
		assertThat(calls("divide", "invalid_arguments")).isEqualTo(invalidBefore + 1);
		assertThat(calls("fail", "exception")).isEqualTo(failedBefore + 1);
		assertThat(this.meters.get("mcp.tools.duration").tag("tool", "divide").timer().count())
			.isEqualTo(timedBefore + 1);
		assertThat(this.meters.find("mcp.tools.calls").tag("tool", "nope").counters()).isEmpty();
		this.meters.find("mcp.tools.calls")
			.counters()
			.forEach((counter) -> assertThat(counter.getId().getTags()).extracting(Tag::getKey)
				.containsExactlyInAnyOrder("tool", "outcome"));
	}

	private double calls(String tool, String outcome) {
		Counter counter = this.meters.find("mcp.tools.calls").tag("tool", tool).tag("outcome", outcome).counter();
		return (counter != null) ? counter.count() : 0;
	}

	@Test
	void aToolAddedOrRemovedAtRunTimeIsAnnouncedToSessionsAndToListenStreamsThatAsked() throws Exception {
		String session = this.client.initialize("2025-11-25");
		try (SseStream sessionStream = this.client.openStream(session);
				SseStream asked = this.client.listen("{\"toolsListChanged\":true}");
				SseStream notAsked = this.client.listen("{\"resourcesListChanged\":true}")) {
			JsonNode honoured = json(asked.nextMessage(WAIT).data()).get("params").get("notifications");
			assertThat(honoured.get("toolsListChanged").booleanValue()).isTrue();
			assertThat(
					json(notAsked.nextMessage(WAIT).data()).get("params").get("notifications").has("toolsListChanged"))
				.isFalse();
			this.tools.register(new SpringAiTool(
					FunctionToolCallback.builder("late_tool", (Function<String, String>) (input) -> "late")
						.description("Registered late")
						.inputType(String.class)
						.build()));
			try {
				assertThat(json(sessionStream.nextMessage(WAIT).data()).get("method").stringValue())
					.isEqualTo("notifications/tools/list_changed");
				JsonNode listened = json(asked.nextMessage(WAIT).data());
				assertThat(listened.get("method").stringValue()).isEqualTo("notifications/tools/list_changed");
				assertThat(listened.get("params").get("_meta").has("io.modelcontextprotocol/subscriptionId")).isTrue();
				assertThat(
						names(json(this.client.stateless("tools/list", "\"cursor\":\"" + cursorAt(3) + "\"").body())))
					.containsExactly("find_products", "late_tool");
			}
			finally {
				this.tools.unregister("late_tool");
			}
			assertThat(json(sessionStream.nextMessage(WAIT).data()).get("method").stringValue())
				.isEqualTo("notifications/tools/list_changed");
			assertThat(json(asked.nextMessage(WAIT).data()).get("method").stringValue())
				.isEqualTo("notifications/tools/list_changed");
			assertThat(notAsked.nextMessage(Duration.ofMillis(300))).as("it did not ask for tool changes").isNull();
		}
	}

	private static List<String> names(JsonNode response) {
		List<String> names = new ArrayList<>();
		response.get("result").get("tools").forEach((tool) -> names.add(tool.get("name").stringValue()));
		return names;
	}

	@Test
	void progressAndLogMessagesComeOnThePostsOwnStreamBeforeTheResult() throws Exception {
		String session = this.client.initialize("2025-11-25");
		this.client.call(session, "logging/setLevel", "{\"level\":\"info\"}");
		HttpResponse<String> response = this.client.call(session, "tools/call",
				"{\"name\":\"report\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p-1\"}}");
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		List<JsonNode> events = events(response.body());
		assertThat(events).extracting((event) -> event.path("method").asString(""))
			.containsExactly("notifications/progress", "notifications/message", "notifications/progress",
					"notifications/progress", "");
		assertThat(events.get(0).get("params").get("progressToken").stringValue()).isEqualTo("p-1");
		assertThat(events.get(3).get("params").get("progress").doubleValue()).isEqualTo(100);
		assertThat(events.get(1).get("params").get("level").stringValue()).isEqualTo("info");
		assertThat(events.get(4).get("result").get("content").get(0).get("text").stringValue()).isEqualTo("reported");
		// 2026: no log messages without a level in _meta, progress only with a token.
		HttpResponse<String> stateless = this.client.stateless("tools/call", "\"name\":\"report\",\"arguments\":{}");
		assertThat(stateless.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		assertThat(json(stateless.body()).get("result").get("resultType").stringValue()).isEqualTo("complete");
	}

	@Test
	void aToolNeedingAnUndeclaredClientCapabilityIsRefused() throws Exception {
		HttpResponse<String> response = this.client.stateless("tools/call", "\"name\":\"ask_model\",\"arguments\":{}");
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode error = json(response.body()).get("error");
		assertThat(error.get("code").intValue()).isEqualTo(-32021);
		assertThat(error.get("data").get("requiredCapabilities").get("sampling").isObject()).isTrue();
		String session = this.client.initialize("2025-11-25");
		JsonNode result = json(
				this.client.call(session, "tools/call", "{\"name\":\"ask_model\",\"arguments\":{}}").body())
			.get("result");
		assertThat(result.get("isError").booleanValue()).isTrue();
		assertThat(result.get("content").get(0).get("text").stringValue()).contains("sampling");
	}

	private static List<JsonNode> events(String body) {
		List<JsonNode> events = new ArrayList<>();
		for (String event : body.split("\n\n")) {
			for (String line : event.split("\n")) {
				if (line.startsWith("data: ")) {
					events.add(json(line.substring(6)));
				}
			}
		}
		return events;
	}

	@Test
	void statelessCallNeedsAMatchingMcpNameHeader() throws Exception {
		HttpResponse<String> response = this.client.stateless("tools/call",
				"\"name\":\"divide\",\"arguments\":{\"dividend\":1,\"divisor\":1}", "Mcp-Name", "fail");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response.body()).get("error").get("code").intValue()).isEqualTo(-32020);
	}

	private static String cursorAt(int offset) {
		return Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString(("offset:" + offset).getBytes(StandardCharsets.UTF_8));
	}

	private static List<String> allTools(Page page) throws Exception {
		List<String> names = new ArrayList<>();
		String cursor = null;
		for (int i = 0; i < 10; i++) {
			JsonNode result = page.fetch(cursor);
			assertThat(result.get("tools").size()).isLessThanOrEqualTo(2);
			result.get("tools").forEach((tool) -> names.add(tool.get("name").stringValue()));
			if (!result.has("nextCursor")) {
				return names;
			}
			cursor = result.get("nextCursor").stringValue();
		}
		throw new AssertionError("no last page");
	}

	@FunctionalInterface
	interface Page {

		JsonNode fetch(String cursor) throws Exception;

	}

	@Configuration(proxyBeanMethods = false)
	static class Tools {

		@Bean
		CatalogTools catalogTools() {
			return new CatalogTools();
		}

		@Bean
		ToolCallbackProvider catalogToolCallbacks(CatalogTools tools) {
			return MethodToolCallbackProvider.builder().toolObjects(tools).build();
		}

		@Bean
		McpTool priceQuote(ToolRegistry registry) {
			McpTool tool = new McpTool() {

				@Override
				public ToolDefinition getDefinition() {
					return new ToolDefinition("price_quote", "Price quote", "A price", ToolDefinition.NO_ARGUMENTS,
							"{\"type\":\"object\",\"properties\":{\"price\":{\"type\":\"integer\"}},\"required\":[\"price\"]}");
				}

				@Override
				public ToolResult call(ToolCall call) {
					return ToolResult.text("{\"price\":42}");
				}

			};
			registry.register(tool);
			return tool;
		}

		@Bean
		McpTool report(ToolRegistry registry) {
			McpTool tool = new McpTool() {

				@Override
				public ToolDefinition getDefinition() {
					return ToolDefinition.of("report", "Reports progress", ToolDefinition.NO_ARGUMENTS);
				}

				@Override
				public ToolResult call(ToolCall call) {
					call.progress().progress(0, 100.0, null);
					call.progress().log("info", "working");
					call.progress().log("debug", "below the level: not sent");
					call.progress().progress(50, 100.0, "half");
					call.progress().progress(100, 100.0, null);
					return ToolResult.text("reported");
				}

			};
			registry.register(tool);
			return tool;
		}

		@Bean
		McpTool askModel(ToolRegistry registry) {
			McpTool tool = new McpTool() {

				@Override
				public ToolDefinition getDefinition() {
					return ToolDefinition.of("ask_model", "Needs sampling", ToolDefinition.NO_ARGUMENTS);
				}

				@Override
				public Set<String> getRequiredClientCapabilities() {
					return Set.of("sampling");
				}

				@Override
				public ToolResult call(ToolCall call) {
					return ToolResult.text("asked");
				}

			};
			registry.register(tool);
			return tool;
		}

		@McpResource(uri = "t://doc")
		String doc() {
			return "doc";
		}

	}

	static class CatalogTools {

		@Tool(name = "find_products", description = "Find products whose name contains the text")
		public String findProducts(@ToolParam(description = "part of a name") String query) {
			return "found: desk " + query;
		}

		@Tool(name = "divide", description = "Divide two numbers")
		public double divide(double dividend, double divisor) {
			return dividend / divisor;
		}

		@Tool(name = "fail", description = "Always fails")
		public String fail() {
			throw new IllegalStateException("s3cr3t database password in message");
		}

	}

}
