package io.github.mcpsubscriptions.server;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.github.mcpsubscriptions.prompt.McpPrompt;
import io.github.mcpsubscriptions.prompt.McpPromptArgument;
import io.github.mcpsubscriptions.prompt.Prompt;
import io.github.mcpsubscriptions.prompt.PromptAccessPolicy;
import io.github.mcpsubscriptions.prompt.PromptCompleter;
import io.github.mcpsubscriptions.prompt.PromptContent;
import io.github.mcpsubscriptions.prompt.PromptDefinition;
import io.github.mcpsubscriptions.prompt.PromptMessage;
import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.prompt.PromptRequest;
import io.github.mcpsubscriptions.prompt.PromptResult;
import io.github.mcpsubscriptions.resource.ResourceContents;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

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
 * {@code @McpPrompt} methods served over a real port in both eras: listed with their
 * arguments and paged, got with their arguments checked, every content type, the
 * completion of their arguments, the access policy, and {@code list_changed} on live
 * streams when a prompt is added or removed at run time.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = { McpTestApplication.class, McpPromptsTests.Prompts.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.prompts.page-size=2", "mcp.resources.cache.ttl=15s" })
class McpPromptsTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final byte[] PNG = Base64.getDecoder()
		.decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==");

	private static final byte[] WAV = { 'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'A', 'V', 'E' };

	private static final List<String> VISIBLE = List.of("assistant_reply", "audio", "code_review", "embedded", "image",
			"quantity", "simple");

	@LocalServerPort
	private int port;

	@Autowired
	private PromptRegistry prompts;

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void bothErasAdvertisePromptsWithListChanged() throws Exception {
		JsonNode session = json(this.client.post(this.client.initializeBody("2025-11-25")).body()).get("result");
		assertThat(session.get("capabilities").get("prompts").get("listChanged").booleanValue()).isTrue();
		JsonNode discover = json(this.client.stateless("server/discover", "").body()).get("result");
		assertThat(discover.get("capabilities").get("prompts").get("listChanged").booleanValue()).isTrue();
	}

	@Test
	void listsEveryVisiblePromptPagedWithItsArgumentsInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		assertThat(all((cursor) -> json(
				this.client.call(session, "prompts/list", (cursor != null) ? "{\"cursor\":\"" + cursor + "\"}" : null)
					.body())
			.get("result"))).containsExactlyElementsOf(VISIBLE);
		assertThat(all((cursor) -> json(
				this.client.stateless("prompts/list", (cursor != null) ? "\"cursor\":\"" + cursor + "\"" : "").body())
			.get("result"))).containsExactlyElementsOf(VISIBLE);
		JsonNode first = json(this.client.call(session, "prompts/list", null).body()).get("result");
		assertThat(first.get("prompts")).hasSize(2);
		JsonNode second = json(this.client
			.call(session, "prompts/list", "{\"cursor\":\"" + first.get("nextCursor").stringValue() + "\"}")
			.body()).get("result");
		JsonNode review = second.get("prompts").get(0);
		assertThat(review.get("name").stringValue()).isEqualTo("code_review");
		assertThat(review.get("title").stringValue()).isEqualTo("Code review");
		assertThat(review.get("description").stringValue()).isEqualTo("Review a piece of code");
		JsonNode arguments = review.get("arguments");
		assertThat(arguments).hasSize(2);
		assertThat(arguments.get(0).get("name").stringValue()).isEqualTo("code");
		assertThat(arguments.get(0).get("description").stringValue()).isEqualTo("The code to review");
		assertThat(arguments.get(0).get("required").booleanValue()).isTrue();
		assertThat(arguments.get(1).get("name").stringValue()).isEqualTo("language");
		assertThat(arguments.get(1).get("required").booleanValue()).isFalse();
	}

	@Test
	void anInvalidCursorIsInvalidParams() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode error = json(this.client.call(session, "prompts/list", "{\"cursor\":\"nonsense\"}").body())
			.get("error");
		assertThat(error.get("code").intValue()).isEqualTo(-32602);
	}

	@Test
	void statelessListCarriesCachingHintsAndResultType() throws Exception {
		JsonNode result = json(this.client.stateless("prompts/list", "").body()).get("result");
		assertThat(result.get("resultType").stringValue()).isEqualTo("complete");
		assertThat(result.get("ttlMs").longValue()).isEqualTo(15_000);
		assertThat(result.get("nextCursor").isString()).isTrue();
	}

	@Test
	void getsAPromptWithItsArgumentsInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode result = json(this.client
			.call(session, "prompts/get",
					"{\"name\":\"code_review\",\"arguments\":{\"code\":\"x = 1\",\"language\":\"python\"}}")
			.body()).get("result");
		assertThat(result.get("description").stringValue()).isEqualTo("A python review");
		assertThat(result.get("messages")).hasSize(1);
		JsonNode message = result.get("messages").get(0);
		assertThat(message.get("role").stringValue()).isEqualTo("user");
		assertThat(message.get("content").get("type").stringValue()).isEqualTo("text");
		assertThat(message.get("content").get("text").stringValue()).isEqualTo("Review this python code: x = 1");
		JsonNode stateless = json(this.client
			.stateless("prompts/get", "\"name\":\"code_review\",\"arguments\":{\"code\":\"y\"}", "Mcp-Name",
					"code_review")
			.body()).get("result");
		assertThat(stateless.get("resultType").stringValue()).isEqualTo("complete");
		assertThat(stateless.get("messages").get(0).get("content").get("text").stringValue())
			.as("an optional argument left out is null")
			.isEqualTo("Review this any code: y");
		assertThat(stateless.has("ttlMs")).as("a prompt is not cacheable").isFalse();
	}

	@Test
	void convertsArgumentsToTheParameterTypes() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode result = json(
				this.client.call(session, "prompts/get", "{\"name\":\"quantity\",\"arguments\":{\"count\":\"3\"}}")
					.body())
			.get("result");
		assertThat(result.get("messages").get(0).get("content").get("text").stringValue()).isEqualTo("3 + 1 = 4");
	}

	@Test
	void missingUnknownAndInvalidArgumentsAreInvalidParamsInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode missing = error(this.client.call(session, "prompts/get", "{\"name\":\"code_review\"}"));
		assertThat(missing.get("code").intValue()).isEqualTo(-32602);
		assertThat(missing.get("message").stringValue()).contains("missing required argument 'code'");
		assertThat(missing.get("data").get("argument").stringValue()).isEqualTo("code");
		JsonNode missingStateless = error(this.client.stateless("prompts/get",
				"\"name\":\"code_review\",\"arguments\":{}", "Mcp-Name", "code_review"));
		assertThat(missingStateless.get("code").intValue()).isEqualTo(-32602);
		JsonNode unknown = error(
				this.client.call(session, "prompts/get", "{\"name\":\"simple\",\"arguments\":{\"extra\":\"x\"}}"));
		assertThat(unknown.get("code").intValue()).isEqualTo(-32602);
		assertThat(unknown.get("message").stringValue()).contains("has no argument 'extra'");
		JsonNode notAString = error(
				this.client.call(session, "prompts/get", "{\"name\":\"quantity\",\"arguments\":{\"count\":3}}"));
		assertThat(notAString.get("code").intValue()).isEqualTo(-32602);
		assertThat(notAString.get("message").stringValue()).contains("must be a string");
		JsonNode notAnObject = error(
				this.client.call(session, "prompts/get", "{\"name\":\"quantity\",\"arguments\":[\"3\"]}"));
		assertThat(notAnObject.get("code").intValue()).isEqualTo(-32602);
		JsonNode notANumber = error(this.client.call(session, "prompts/get",
				"{\"name\":\"quantity\",\"arguments\":{\"count\":\"three\"}}"));
		assertThat(notANumber.get("code").intValue()).isEqualTo(-32602);
		assertThat(notANumber.get("message").stringValue()).contains("argument 'count' is not a valid int: 'three'");
		JsonNode empty = error(
				this.client.call(session, "prompts/get", "{\"name\":\"quantity\",\"arguments\":{\"count\":\"\"}}"));
		assertThat(empty.get("code").intValue()).isEqualTo(-32602);
		assertThat(empty.get("message").stringValue()).contains("argument 'count' is not a valid int: ''");
		JsonNode refusedByThePrompt = error(
				this.client.call(session, "prompts/get", "{\"name\":\"quantity\",\"arguments\":{\"count\":\"-1\"}}"));
		assertThat(refusedByThePrompt.get("code").intValue()).isEqualTo(-32602);
		assertThat(refusedByThePrompt.get("message").stringValue()).contains("count must not be negative");
		JsonNode noName = error(this.client.call(session, "prompts/get", "{}"));
		assertThat(noName.get("code").intValue()).isEqualTo(-32602);
	}

	@Test
	void anUnknownPromptIsInvalidParamsInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode unknown = error(this.client.call(session, "prompts/get", "{\"name\":\"nope\"}"));
		assertThat(unknown.get("code").intValue()).isEqualTo(-32602);
		assertThat(unknown.get("message").stringValue()).isEqualTo("Invalid params: unknown prompt: nope");
		assertThat(unknown.get("data").get("name").stringValue()).isEqualTo("nope");
		HttpResponse<String> stateless = this.client.stateless("prompts/get", "\"name\":\"nope\"", "Mcp-Name", "nope");
		assertThat(error(stateless).get("code").intValue()).isEqualTo(-32602);
	}

	@Test
	void aPromptTheCallerMayNotGetIsAnsweredAsAnUnknownOne() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode refused = error(this.client.call(session, "prompts/get", "{\"name\":\"secret\"}"));
		assertThat(refused.get("code").intValue()).isEqualTo(-32602);
		assertThat(refused.get("message").stringValue()).isEqualTo("Invalid params: unknown prompt: secret");
		assertThat(
				error(this.client.stateless("prompts/get", "\"name\":\"secret\"", "Mcp-Name", "secret")).get("message")
					.stringValue())
			.isEqualTo("Invalid params: unknown prompt: secret");
		JsonNode completion = json(this.client.call(session, "completion/complete",
				"{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"secret\"},\"argument\":{\"name\":\"topic\",\"value\":\"\"}}")
			.body()).get("result").get("completion");
		assertThat(completion.get("values")).as("no completion for what the caller may not get").isEmpty();
	}

	@Test
	void everyContentTypeInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode image = get(session, "image").get(0).get("content");
		assertThat(image.get("type").stringValue()).isEqualTo("image");
		assertThat(image.get("mimeType").stringValue()).isEqualTo("image/png");
		assertThat(Base64.getDecoder().decode(image.get("data").stringValue())).isEqualTo(PNG);
		JsonNode audio = get(session, "audio").get(0).get("content");
		assertThat(audio.get("type").stringValue()).isEqualTo("audio");
		assertThat(audio.get("mimeType").stringValue()).isEqualTo("audio/wav");
		assertThat(Base64.getDecoder().decode(audio.get("data").stringValue())).isEqualTo(WAV);
		JsonNode embedded = json(this.client
			.stateless("prompts/get", "\"name\":\"embedded\",\"arguments\":{\"uri\":\"doc://guide\"}", "Mcp-Name",
					"embedded")
			.body()).get("result").get("messages");
		assertThat(embedded).hasSize(4);
		JsonNode text = embedded.get(0).get("content");
		assertThat(text.get("type").stringValue()).isEqualTo("resource");
		assertThat(text.get("resource").get("uri").stringValue()).isEqualTo("doc://guide");
		assertThat(text.get("resource").get("mimeType").stringValue()).isEqualTo("text/plain");
		assertThat(text.get("resource").get("text").stringValue()).isEqualTo("The guide.");
		JsonNode blob = embedded.get(1).get("content");
		assertThat(blob.get("type").stringValue()).isEqualTo("resource");
		assertThat(Base64.getDecoder().decode(blob.get("resource").get("blob").stringValue())).isEqualTo(PNG);
		JsonNode link = embedded.get(2).get("content");
		assertThat(link.get("type").stringValue()).isEqualTo("resource_link");
		assertThat(link.get("uri").stringValue()).isEqualTo("doc://guide/more");
		assertThat(link.get("name").stringValue()).isEqualTo("more");
		assertThat(link.has("title")).isFalse();
		assertThat(embedded.get(3).get("content").get("text").stringValue()).isEqualTo("Summarize doc://guide.");
		JsonNode conversation = get(session, "assistant_reply");
		assertThat(conversation).extracting((message) -> message.get("role").stringValue())
			.containsExactly("user", "assistant");
	}

	@Test
	void aFailingPromptIsAnInternalErrorWithASafeMessage(CapturedOutput output) throws Exception {
		this.prompts.register(new FixedPrompt("broken", (request) -> {
			throw new IllegalStateException("database password is hunter2");
		}));
		try {
			String session = this.client.initialize("2025-11-25");
			JsonNode error = error(this.client.call(session, "prompts/get", "{\"name\":\"broken\"}"));
			assertThat(error.get("code").intValue()).isEqualTo(-32603);
			assertThat(error.get("message").stringValue())
				.isEqualTo("The prompt 'broken' failed. The error was logged on the server.");
			assertThat(output).contains("MCP prompt 'broken' failed");
		}
		finally {
			this.prompts.unregister("broken");
		}
	}

	@Test
	void completesPromptArgumentsInBothEras() throws Exception {
		String session = this.client.initialize("2025-11-25");
		JsonNode fromValues = complete(
				this.client.call(session, "completion/complete", completeParams("code_review", "language", "py")));
		assertThat(fromValues.get("values")).extracting(JsonNode::stringValue).containsExactly("python", "pyret");
		assertThat(fromValues.get("total").intValue()).isEqualTo(2);
		assertThat(fromValues.get("hasMore").booleanValue()).isFalse();
		JsonNode fromCompleter = complete(this.client.stateless("completion/complete",
				completeParams("quantity", "count", "").replaceAll("^\\{|\\}$", "")
					.concat(",\"context\":{\"arguments\":{\"unit\":\"dozen\"}}")));
		assertThat(fromCompleter.get("values")).extracting(JsonNode::stringValue).containsExactly("12", "24");
		JsonNode unknownPrompt = complete(
				this.client.call(session, "completion/complete", completeParams("nope", "x", "")));
		assertThat(unknownPrompt.get("values")).isEmpty();
		JsonNode unknownArgument = complete(
				this.client.call(session, "completion/complete", completeParams("code_review", "nope", "")));
		assertThat(unknownArgument.get("values")).isEmpty();
	}

	@Test
	void aPromptAddedOrRemovedAtRunTimeIsAnnouncedToSessionsAndToListenStreamsThatAsked() throws Exception {
		String session = this.client.initialize("2025-11-25");
		try (SseStream sessionStream = this.client.openStream(session);
				SseStream asked = this.client.listen("{\"promptsListChanged\":true}");
				SseStream notAsked = this.client.listen("{\"resourcesListChanged\":true}")) {
			JsonNode honoured = json(asked.nextMessage(WAIT).data()).get("params").get("notifications");
			assertThat(honoured.get("promptsListChanged").booleanValue()).isTrue();
			assertThat(json(notAsked.nextMessage(WAIT).data()).get("params")
				.get("notifications")
				.has("promptsListChanged")).isFalse();
			this.prompts.register(new FixedPrompt("late", (request) -> PromptResult.of(PromptMessage.user("late"))));
			try {
				assertThat(json(sessionStream.nextMessage(WAIT).data()).get("method").stringValue())
					.isEqualTo("notifications/prompts/list_changed");
				JsonNode listened = json(asked.nextMessage(WAIT).data());
				assertThat(listened.get("method").stringValue()).isEqualTo("notifications/prompts/list_changed");
				assertThat(listened.get("params").get("_meta").has("io.modelcontextprotocol/subscriptionId")).isTrue();
				assertThat(get(session, "late").get(0).get("content").get("text").stringValue()).isEqualTo("late");
			}
			finally {
				this.prompts.unregister("late");
			}
			assertThat(json(sessionStream.nextMessage(WAIT).data()).get("method").stringValue())
				.isEqualTo("notifications/prompts/list_changed");
			assertThat(json(asked.nextMessage(WAIT).data()).get("method").stringValue())
				.isEqualTo("notifications/prompts/list_changed");
			assertThat(notAsked.nextMessage(Duration.ofMillis(300))).as("it did not ask for prompt changes").isNull();
		}
	}

	@Test
	void aListenFilterMustSayPromptsListChangedAsABoolean() throws Exception {
		JsonNode error = error(
				this.client.stateless("subscriptions/listen", "\"notifications\":{\"promptsListChanged\":\"yes\"}"));
		assertThat(error.get("code").intValue()).isEqualTo(-32602);
		assertThat(error.get("message").stringValue()).contains("\"promptsListChanged\" must be a boolean");
	}

	private JsonNode get(String session, String name) throws Exception {
		return json(this.client.call(session, "prompts/get", "{\"name\":\"" + name + "\"}").body()).get("result")
			.get("messages");
	}

	private static JsonNode error(HttpResponse<String> response) {
		JsonNode error = json(response.body()).get("error");
		assertThat(error).as(response.body()).isNotNull();
		return error;
	}

	private static JsonNode complete(HttpResponse<String> response) {
		return json(response.body()).get("result").get("completion");
	}

	private static String completeParams(String prompt, String argument, String value) {
		return "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"" + prompt + "\"},\"argument\":{\"name\":\"" + argument
				+ "\",\"value\":\"" + value + "\"}}";
	}

	private static List<String> all(Page page) throws Exception {
		List<String> names = new ArrayList<>();
		String cursor = null;
		do {
			JsonNode result = page.apply(cursor);
			result.get("prompts").forEach((prompt) -> names.add(prompt.get("name").stringValue()));
			cursor = result.has("nextCursor") ? result.get("nextCursor").stringValue() : null;
		}
		while (cursor != null);
		return names;
	}

	private record FixedPrompt(String name, Answer answer) implements Prompt {

		@Override
		public PromptDefinition getDefinition() {
			return PromptDefinition.of(this.name, "Registered at run time");
		}

		@Override
		public PromptResult get(PromptRequest request) throws Exception {
			return this.answer.get(request);
		}

	}

	@FunctionalInterface
	private interface Page {

		JsonNode apply(@Nullable String cursor) throws Exception;

	}

	@FunctionalInterface
	private interface Answer {

		PromptResult get(PromptRequest request) throws Exception;

	}

	@Configuration(proxyBeanMethods = false)
	static class Prompts {

		@Bean
		PromptFixtures promptFixtures() {
			return new PromptFixtures();
		}

		@Bean
		PromptAccessPolicy secretsHidden() {
			return (principal, prompt) -> !prompt.getDefinition().name().startsWith("secret");
		}

		@Bean
		PromptCompleter dozens() {
			return (prompt, argument, prefix,
					context) -> (prompt.equals("quantity") && "dozen".equals(context.get("unit"))) ? List.of("12", "24")
							: null;
		}

	}

	static class PromptFixtures {

		@McpPrompt(description = "A prompt without arguments")
		String simple() {
			return "A simple prompt.";
		}

		@McpPrompt(name = "code_review", title = "Code review", description = "Review a piece of code")
		PromptResult review(@McpPromptArgument(description = "The code to review") String code,
				@McpPromptArgument(required = false,
						values = { "java", "python", "pyret" }) @Nullable String language) {
			String lang = (language != null) ? language : "any";
			return new PromptResult("A " + lang + " review",
					List.of(PromptMessage.user("Review this " + lang + " code: " + code)));
		}

		@McpPrompt(description = "Counts")
		String quantity(int count, @McpPromptArgument(required = false) @Nullable String unit) {
			if (count < 0) {
				throw new IllegalArgumentException("count must not be negative");
			}
			return count + " + 1 = " + (count + 1);
		}

		@McpPrompt(description = "An image")
		PromptContent image() {
			return PromptContent.image(PNG, "image/png");
		}

		@McpPrompt(description = "Audio")
		PromptMessage audio() {
			return PromptMessage.user(PromptContent.audio(WAV, "audio/wav"));
		}

		@McpPrompt(description = "Embedded resources")
		List<PromptMessage> embedded(String uri) {
			return List.of(
					PromptMessage.user(PromptContent.resource(ResourceContents.text(uri, "text/plain", "The guide."))),
					PromptMessage.user(PromptContent.resource(ResourceContents.blob(uri + "/image", "image/png", PNG))),
					PromptMessage.user(PromptContent.resourceLink(uri + "/more", "more")),
					PromptMessage.user("Summarize " + uri + "."));
		}

		@McpPrompt(name = "assistant_reply", description = "A conversation")
		PromptMessage[] assistantReply() {
			return new PromptMessage[] { PromptMessage.user("Hello"),
					PromptMessage.assistant("Hello, how can I help?") };
		}

		@McpPrompt(description = "Hidden by the access policy")
		String secret(@McpPromptArgument(values = "x") String topic) {
			return "secret " + topic;
		}

	}

}
