package io.github.mcpsubscriptions.springai;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpMeta;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.ai.mcp.annotation.McpResource;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bean written as Spring AI's MCP server documentation shows, served over a real port
 * in both eras: its {@code @McpTool}, {@code @McpResource} (static and template),
 * {@code @McpPrompt} and {@code @McpComplete} methods listed and answered, and its
 * resources subscribable.
 */
@SpringBootTest(classes = { McpTestApplication.class, SpringAiAnnotationsTests.Server.class },
		webEnvironment = WebEnvironment.RANDOM_PORT)
class SpringAiAnnotationsTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private MeterRegistry meters;

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void listsToolsWithSpringAiSchemasInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		for (JsonNode result : List.of(json(this.client.call(session, "tools/list", null).body()).get("result"),
				json(this.client.stateless("tools/list", "").body()).get("result"))) {
			JsonNode add = tool(result, "add");
			assertThat(add.get("description").stringValue()).isEqualTo("Add two numbers");
			assertThat(add.get("title").stringValue()).isEqualTo("Adder");
			assertThat(add.get("inputSchema").get("properties").get("a").get("description").stringValue())
				.isEqualTo("The first number");
			assertThat(add.get("inputSchema").get("required")).extracting(JsonNode::stringValue).contains("a");
			assertThat(tool(result, "greet")).isNotNull();
		}
	}

	@Test
	void callsToolsInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode sum = json(
				this.client.call(session, "tools/call", "{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3}}").body())
			.get("result");
		assertThat(sum.get("content").get(0).get("type").stringValue()).isEqualTo("text");
		assertThat(sum.get("content").get(0).get("text").stringValue()).isEqualTo("5");
		assertThat(sum.has("isError")).isFalse();
		JsonNode greeting = json(
				this.client.stateless("tools/call", "\"name\":\"greet\",\"arguments\":{\"name\":\"Ada\"}").body())
			.get("result");
		assertThat(greeting.get("content").get(0).get("text").stringValue()).isEqualTo("Hello Ada (no meta)");
		JsonNode failed = json(this.client.stateless("tools/call", "\"name\":\"explode\",\"arguments\":{}").body())
			.get("result");
		assertThat(failed.get("isError").booleanValue()).isTrue();
		assertThat(this.meters.get("mcp.tools.calls").tag("tool", "add").counter().count()).isPositive();
	}

	@Test
	void listsAndReadsStaticResourcesAndTemplatesInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode resources = json(this.client.call(session, "resources/list", null).body()).get("result")
			.get("resources");
		JsonNode config = find(resources, "uri", "config://app");
		assertThat(config.get("name").stringValue()).isEqualTo("app-config");
		assertThat(config.get("description").stringValue()).isEqualTo("The application's configuration");
		assertThat(config.get("mimeType").stringValue()).isEqualTo("text/plain");
		JsonNode templates = json(this.client.stateless("resources/templates/list", "").body()).get("result")
			.get("resourceTemplates");
		assertThat(find(templates, "uriTemplate", "user-profile://{username}").get("name").stringValue())
			.isEqualTo("user-profile");
		JsonNode text = json(this.client.call(session, "resources/read", "{\"uri\":\"config://app\"}").body())
			.get("result")
			.get("contents")
			.get(0);
		assertThat(text.get("uri").stringValue()).isEqualTo("config://app");
		assertThat(text.get("text").stringValue()).isEqualTo("mode=test");
		JsonNode profile = json(this.client.stateless("resources/read", "\"uri\":\"user-profile://ada\"").body())
			.get("result")
			.get("contents")
			.get(0);
		assertThat(profile.get("uri").stringValue()).isEqualTo("user-profile://ada");
		assertThat(profile.get("mimeType").stringValue()).isEqualTo("application/json");
		assertThat(json(profile.get("text").stringValue()).get("name").stringValue()).isEqualTo("ada");
	}

	@Test
	void getsPromptsInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode prompt = find(
				json(this.client.call(session, "prompts/list", null).body()).get("result").get("prompts"), "name",
				"greeting");
		assertThat(prompt.get("description").stringValue()).isEqualTo("A greeting");
		assertThat(prompt.get("arguments").get(0).get("name").stringValue()).isEqualTo("name");
		assertThat(prompt.get("arguments").get(0).get("required").booleanValue()).isTrue();
		JsonNode result = json(
				this.client.call(session, "prompts/get", "{\"name\":\"greeting\",\"arguments\":{\"name\":\"Ada\"}}")
					.body())
			.get("result");
		assertThat(result.get("messages").get(0).get("role").stringValue()).isEqualTo("user");
		assertThat(result.get("messages").get(0).get("content").get("text").stringValue()).isEqualTo("Hello Ada");
		JsonNode stateless = json(this.client
			.stateless("prompts/get", "\"name\":\"summary\",\"arguments\":{\"topic\":\"MCP\"}", "Mcp-Name", "summary")
			.body()).get("result");
		assertThat(stateless.get("messages").get(0).get("content").get("text").stringValue())
			.isEqualTo("Summarize MCP");
		JsonNode missing = json(
				this.client.call(session, "prompts/get", "{\"name\":\"greeting\",\"arguments\":{}}").body())
			.get("error");
		assertThat(missing.get("code").intValue()).isEqualTo(-32602);
	}

	@Test
	void completesPromptArgumentsAndTemplateVariables() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode names = json(this.client.call(session, "completion/complete",
				"{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"greeting\"},\"argument\":{\"name\":\"name\",\"value\":\"A\"}}")
			.body()).get("result").get("completion");
		assertThat(names.get("values")).extracting(JsonNode::stringValue).containsExactly("Ada", "Alan");
		JsonNode users = json(this.client
			.stateless("completion/complete",
					"\"ref\":{\"type\":\"ref/resource\",\"uri\":\"user-profile://{username}\"},"
							+ "\"argument\":{\"name\":\"username\",\"value\":\"g\"}")
			.body()).get("result").get("completion");
		assertThat(users.get("values")).extracting(JsonNode::stringValue).containsExactly("grace");
	}

	@Test
	void aSubscriptionToASpringAiResourceIsToldOfItsChanges() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode subscribed = json(
				this.client.call(session, "resources/subscribe", "{\"uri\":\"user-profile://ada\"}").body());
		assertThat(subscribed.has("error")).as(subscribed.toString()).isFalse();
		try (SseStream stream = this.client.openStream(session)) {
			this.events.publishEvent(new ResourceChangedEvent("user-profile://ada"));
			SseEvent event = stream.nextMessage(WAIT);
			assertThat(event).isNotNull();
			JsonNode notification = json(event.data());
			assertThat(notification.get("method").stringValue()).isEqualTo("notifications/resources/updated");
			assertThat(notification.get("params").get("uri").stringValue()).isEqualTo("user-profile://ada");
		}
	}

	@Test
	void aListenStreamForASpringAiTemplateIsToldOfItsChanges() throws Exception {
		try (SseStream stream = this.client.listen("{\"resourceSubscriptions\":[\"user-profile://{username}\"]}")) {
			JsonNode ack = json(stream.nextMessage(WAIT).data());
			assertThat(ack.get("params").get("notifications").get("resourceSubscriptions"))
				.extracting(JsonNode::stringValue)
				.containsExactly("user-profile://{username}");
			this.events.publishEvent(new ResourceChangedEvent("user-profile://grace"));
			SseEvent event = stream.nextMessage(WAIT);
			assertThat(event).isNotNull();
			JsonNode notification = json(event.data());
			assertThat(notification.get("method").stringValue()).isEqualTo("notifications/resources/updated");
			assertThat(notification.get("params").get("uri").stringValue()).isEqualTo("user-profile://grace");
		}
	}

	private static JsonNode tool(JsonNode result, String name) {
		return find(result.get("tools"), "name", name);
	}

	private static JsonNode find(JsonNode array, String field, String value) {
		for (JsonNode node : array) {
			if (node.get(field).stringValue().equals(value)) {
				return node;
			}
		}
		throw new AssertionError("No " + field + " '" + value + "' in " + array);
	}

	@Configuration(proxyBeanMethods = false)
	static class Server {

		@Bean
		SpringAiServer springAiServer() {
			return new SpringAiServer();
		}

	}

	/**
	 * Written as Spring AI's MCP annotations documentation shows.
	 */
	static class SpringAiServer {

		@McpTool(name = "add", description = "Add two numbers", title = "Adder",
				annotations = @McpTool.McpAnnotations(readOnlyHint = true))
		int add(@McpToolParam(description = "The first number", required = true) int a,
				@McpToolParam(description = "The second number", required = true) int b) {
			return a + b;
		}

		@McpTool(description = "Greet someone")
		McpSchema.CallToolResult greet(@McpToolParam(description = "Who") String name, McpMeta meta) {
			String suffix = (meta == null || meta.meta() == null || meta.meta().isEmpty()) ? " (no meta)"
					: " " + meta.meta();
			return McpSchema.CallToolResult.builder().addTextContent("Hello " + name + suffix).build();
		}

		@McpTool(description = "Always fails")
		String explode() {
			throw new IllegalStateException("boom");
		}

		@McpResource(uri = "config://app", name = "app-config", description = "The application's configuration",
				mimeType = "text/plain")
		String config() {
			return "mode=test";
		}

		@McpResource(uri = "user-profile://{username}", name = "user-profile", description = "A user's profile",
				mimeType = "application/json")
		McpSchema.ReadResourceResult profile(String username) {
			return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(
					"user-profile://" + username, "application/json", "{\"name\":\"" + username + "\"}")));
		}

		@McpPrompt(name = "greeting", description = "A greeting")
		McpSchema.GetPromptResult greeting(@McpArg(name = "name", description = "Who", required = true) String name) {
			return new McpSchema.GetPromptResult("Greeting", List
				.of(new McpSchema.PromptMessage(McpSchema.Role.USER, new McpSchema.TextContent("Hello " + name))));
		}

		@McpPrompt(name = "summary", description = "Summarize a topic")
		List<String> summary(@McpArg(name = "topic", required = true) String topic) {
			return List.of("Summarize " + topic);
		}

		@McpComplete(prompt = "greeting")
		List<String> completeName(String prefix) {
			return Stream.of("Ada", "Alan", "Grace").filter((name) -> name.startsWith(prefix)).toList();
		}

		@McpComplete(uri = "user-profile://{username}")
		List<String> completeUser(String prefix) {
			return Stream.of("ada", "grace").filter((name) -> name.startsWith(prefix)).toList();
		}

	}

}
