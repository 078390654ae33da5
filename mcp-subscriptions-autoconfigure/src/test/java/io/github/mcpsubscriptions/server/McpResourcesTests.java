package io.github.mcpsubscriptions.server;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.notification.ResourceListChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;
import io.github.mcpsubscriptions.resource.ResourceContents;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.resource.ResourceRequest;
import io.github.mcpsubscriptions.resource.UriVariable;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
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
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Resources end to end over a real port: list, templates, read, pagination, errors,
 * completion and list_changed.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = { McpTestApplication.class, McpResourcesTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = "mcp.resources.page-size=2")
class McpResourcesTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	@LocalServerPort
	private int port;

	@Autowired
	private ResourceRegistry registry;

	@Autowired
	private ApplicationEventPublisher events;

	private McpTestClient client;

	private String session;

	@BeforeEach
	void setUp() throws Exception {
		this.client = new McpTestClient(this.port);
		this.session = this.client.initialize();
	}

	@Test
	void capabilitiesAdvertiseListChanged() throws Exception {
		JsonNode result = json(this.client.post(this.client.initializeBody("2025-11-25")).body()).get("result");
		assertThat(result.get("capabilities").get("resources").get("listChanged").booleanValue()).isTrue();
	}

	@Test
	void listsStaticResourcesAndTemplateInstancesInPages() throws Exception {
		List<JsonNode> resources = new ArrayList<>();
		String cursor = null;
		int pages = 0;
		do {
			JsonNode result = result("resources/list", (cursor != null) ? "{\"cursor\":\"" + cursor + "\"}" : null);
			assertThat(result.get("resources").size()).isLessThanOrEqualTo(2);
			result.get("resources").forEach(resources::add);
			cursor = result.has("nextCursor") ? result.get("nextCursor").stringValue() : null;
			pages++;
		}
		while (cursor != null && pages < 10);
		assertThat(resources).extracting((resource) -> resource.get("uri").stringValue())
			.containsExactly("test://failing", "test://greeting", "test://json", "test://static-binary",
					"test://static-text", "catalog://items/1", "catalog://items/2", "catalog://items/30");
		JsonNode text = resources.get(4);
		assertThat(text.get("name").stringValue()).isEqualTo("static-text");
		assertThat(text.get("title").stringValue()).isEqualTo("Static text");
		assertThat(text.get("description").stringValue()).isEqualTo("A fixed text");
		assertThat(text.get("mimeType").stringValue()).isEqualTo("text/plain");
		assertThat(text.get("annotations").get("audience").get(0).stringValue()).isEqualTo("assistant");
		assertThat(text.get("annotations").get("priority").doubleValue()).isEqualTo(0.5);
		assertThat(text.get("size").longValue()).isEqualTo(11);
		assertThat(resources.get(5).get("name").stringValue()).isEqualTo("item 1");
	}

	@Test
	void listsTemplates() throws Exception {
		JsonNode first = result("resources/templates/list", null);
		assertThat(first.get("resourceTemplates").size()).isEqualTo(2);
		JsonNode second = result("resources/templates/list",
				"{\"cursor\":\"" + first.get("nextCursor").stringValue() + "\"}");
		List<String> templates = new ArrayList<>();
		first.get("resourceTemplates").forEach((t) -> templates.add(t.get("uriTemplate").stringValue()));
		second.get("resourceTemplates").forEach((t) -> templates.add(t.get("uriTemplate").stringValue()));
		assertThat(templates).containsExactly("catalog://items/{id}", "files:///{+path}", "search://items{?q,limit}");
		assertThat(second.has("nextCursor")).isFalse();
	}

	@Test
	void invalidCursorIsInvalidParams() throws Exception {
		assertErrorCode(this.client.call(this.session, "resources/list", "{\"cursor\":\"bogus!\"}").body(), -32602);
		String forged = Base64.getUrlEncoder().encodeToString("offset:-5".getBytes(StandardCharsets.UTF_8));
		assertErrorCode(this.client.call(this.session, "resources/list", "{\"cursor\":\"" + forged + "\"}").body(),
				-32602);
		assertErrorCode(this.client.call(this.session, "resources/templates/list", "{\"cursor\":7}").body(), -32602);
	}

	@Test
	void readsText() throws Exception {
		JsonNode contents = read("test://static-text").get(0);
		assertThat(contents.get("uri").stringValue()).isEqualTo("test://static-text");
		assertThat(contents.get("mimeType").stringValue()).isEqualTo("text/plain");
		assertThat(contents.get("text").stringValue()).isEqualTo("hello world");
		assertThat(contents.has("blob")).isFalse();
	}

	@Test
	void readsBlobAsBase64() throws Exception {
		JsonNode contents = read("test://static-binary").get(0);
		assertThat(contents.get("mimeType").stringValue()).isEqualTo("image/png");
		assertThat(Base64.getDecoder().decode(contents.get("blob").stringValue())).containsExactly(1, 2, 3, (byte) 255);
	}

	@Test
	void readsObjectAsJson() throws Exception {
		JsonNode contents = read("test://json").get(0);
		assertThat(contents.get("mimeType").stringValue()).isEqualTo("application/json");
		assertThat(json(contents.get("text").stringValue())).isEqualTo(json("{\"id\":7,\"name\":\"seven\"}"));
	}

	@Test
	void readsTemplateWithConvertedVariable() throws Exception {
		JsonNode contents = read("catalog://items/30").get(0);
		assertThat(contents.get("uri").stringValue()).isEqualTo("catalog://items/30");
		assertThat(json(contents.get("text").stringValue()).get("id").longValue()).isEqualTo(30);
	}

	@Test
	void readsReservedExpansionAndResourceContents() throws Exception {
		JsonNode contents = read("files:///docs/a%20b/r%C3%A9sum%C3%A9.txt").get(0);
		assertThat(contents.get("text").stringValue()).isEqualTo("file docs/a b/résumé.txt");
		assertThat(contents.get("mimeType").stringValue()).isEqualTo("text/markdown");
	}

	@Test
	void encodedSlashStaysInSimpleVariable() throws Exception {
		JsonNode contents = read("catalog://items/1%2F2");
		assertThat(contents).isNull();
		JsonNode error = json(
				this.client.call(this.session, "resources/read", "{\"uri\":\"catalog://items/1%2F2\"}").body());
		// "1/2" is no Long: no such item, and the template did not swallow the slash.
		assertThat(error.get("error").get("code").intValue()).isEqualTo(-32002);
	}

	@Test
	void readsQueryTemplateWithOptionalVariables() throws Exception {
		assertThat(read("search://items?q=lamp&limit=3").get(0).get("text").stringValue()).isEqualTo("lamp:3");
		assertThat(read("search://items").get(0).get("text").stringValue()).isEqualTo("null:null");
	}

	@Test
	void readsWithResourceRequestParameter() throws Exception {
		assertThat(read("test://greeting").get(0).get("text").stringValue()).isEqualTo("hi from test://greeting");
	}

	@Test
	void unknownResourceIsNotFoundWithUri() throws Exception {
		JsonNode body = json(this.client.call(this.session, "resources/read", "{\"uri\":\"test://nope\"}").body());
		assertThat(body.get("error").get("code").intValue()).isEqualTo(-32002);
		assertThat(body.get("error").get("data").get("uri").stringValue()).isEqualTo("test://nope");
	}

	@Test
	void emptyOptionalAndUnconvertibleVariableAreNotFound() throws Exception {
		assertErrorCode(this.client.call(this.session, "resources/read", "{\"uri\":\"catalog://items/404\"}").body(),
				-32002);
		assertErrorCode(this.client.call(this.session, "resources/read", "{\"uri\":\"catalog://items/abc\"}").body(),
				-32002);
	}

	@Test
	void badUriParamIsInvalidParams() throws Exception {
		assertErrorCode(this.client.call(this.session, "resources/read", "{}").body(), -32602);
		assertErrorCode(this.client.call(this.session, "resources/read", "{\"uri\":42}").body(), -32602);
		assertErrorCode(this.client.call(this.session, "resources/read", "{\"uri\":\"\"}").body(), -32602);
		assertErrorCode(
				this.client.call(this.session, "resources/read", "{\"uri\":\"test://" + "x".repeat(9000) + "\"}")
					.body(),
				-32602);
	}

	@Test
	void failingReaderIsInternalErrorWithoutDetails(CapturedOutput output) throws Exception {
		String body = this.client.call(this.session, "resources/read", "{\"uri\":\"test://failing\"}").body();
		assertErrorCode(body, -32603);
		assertThat(body).doesNotContain("database password", "IllegalStateException", "\tat ");
		// The details are for the operator.
		assertThat(output).contains("ERROR")
			.contains("MCP resource failure while reading resource test://failing")
			.contains("IllegalStateException: database password is hunter2");
	}

	@Test
	void completesTemplateVariableFromInstances() throws Exception {
		JsonNode completion = result("completion/complete",
				"{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"catalog://items/{id}\"},"
						+ "\"argument\":{\"name\":\"id\",\"value\":\"3\"}}")
			.get("completion");
		assertThat(completion.get("values").get(0).stringValue()).isEqualTo("30");
		assertThat(completion.get("values").size()).isOne();
		assertThat(completion.get("total").intValue()).isOne();
	}

	@Test
	void completionOfUnknownTemplateIsEmpty() throws Exception {
		JsonNode completion = result("completion/complete", "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"x://{y}\"},"
				+ "\"argument\":{\"name\":\"y\",\"value\":\"\"}}")
			.get("completion");
		assertThat(completion.get("values").isEmpty()).isTrue();
	}

	@Test
	void registryChangeSendsListChanged() throws Exception {
		try (SseStream stream = this.client.openStream(this.session)) {
			this.registry.register(ResourceDefinition.builder("test://added", (request) -> "new").build());
			try {
				SseEvent event = stream.nextMessage(WAIT);
				assertThat(event).isNotNull();
				assertThat(json(event.data()).get("method").stringValue())
					.isEqualTo("notifications/resources/list_changed");
				assertThat(read("test://added").get(0).get("text").stringValue()).isEqualTo("new");
			}
			finally {
				this.registry.unregister("test://added");
			}
			assertThat(stream.nextMessage(WAIT)).as("removal is announced too").isNotNull();
			assertErrorCode(this.client.call(this.session, "resources/read", "{\"uri\":\"test://added\"}").body(),
					-32002);
		}
	}

	@Test
	void listChangedEventSendsListChanged() throws Exception {
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceListChangedEvent(this));
			SseEvent event = stream.nextMessage(WAIT);
			assertThat(event).isNotNull();
			assertThat(json(event.data()).get("method").stringValue())
				.isEqualTo("notifications/resources/list_changed");
		}
	}

	@Test
	void anInstanceOfATemplateThatListsItsInstancesCreatedSendsListChanged() throws Exception {
		try (SseStream stream = this.client.openStream(this.session)) {
			this.events.publishEvent(new ResourceChangedEvent("catalog://items/77", Map.of("change", "created")));
			SseEvent event = stream.nextMessage(WAIT);
			assertThat(event).isNotNull();
			assertThat(json(event.data()).get("method").stringValue())
				.isEqualTo("notifications/resources/list_changed");
		}
	}

	private JsonNode result(String method, String params) throws Exception {
		JsonNode body = json(this.client.call(this.session, method, params).body());
		assertThat(body.has("error")).as("error in %s", body).isFalse();
		return body.get("result");
	}

	private JsonNode read(String uri) throws Exception {
		JsonNode body = json(this.client.call(this.session, "resources/read", "{\"uri\":\"" + uri + "\"}").body());
		return body.has("result") ? body.get("result").get("contents") : null;
	}

	private static void assertErrorCode(String body, int code) {
		assertThat(json(body).get("error").get("code").intValue()).as(body).isEqualTo(code);
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		TestResources testResources() {
			return new TestResources();
		}

	}

	static class TestResources {

		@McpResource(uri = "test://static-text", name = "static-text", title = "Static text",
				description = "A fixed text", size = 11, audience = McpResource.Role.ASSISTANT, priority = 0.5)
		String staticText() {
			return "hello world";
		}

		@McpResource(uri = "test://static-binary", mimeType = "image/png")
		byte[] staticBinary() {
			return new byte[] { 1, 2, 3, (byte) 255 };
		}

		@McpResource(uri = "test://json")
		Map<String, Object> json() {
			return Map.of("id", 7, "name", "seven");
		}

		@McpResource(uri = "test://failing")
		String failing() {
			throw new IllegalStateException("database password is hunter2");
		}

		@McpResource(uri = "test://greeting")
		String greeting(ResourceRequest request) {
			return "hi from " + request.uri();
		}

		@McpResource(uri = "catalog://items/{id}", name = "item")
		Optional<Map<String, Object>> item(Long id) {
			return (id == 404) ? Optional.empty() : Optional.of(Map.of("id", id));
		}

		@McpResourceInstances("catalog://items/{id}")
		List<Long> itemIds() {
			return List.of(1L, 2L, 30L);
		}

		@McpResource(uri = "files:///{+path}")
		ResourceContents file(@UriVariable("path") String file) {
			return ResourceContents.text("files:///" + file, "text/markdown", "file " + file);
		}

		@McpResource(uri = "search://items{?q,limit}")
		String search(String q, Integer limit) {
			return q + ":" + limit;
		}

	}

}
