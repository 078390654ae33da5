package io.github.mcpsubscriptions.server;

import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without prompts: a 2025 session is offered no prompts capability and no prompts methods
 * (what is not advertised does not exist); the 2026 era advertises prompts without
 * {@code listChanged}, lists none and knows no name; completion stays empty.
 */
@SpringBootTest(classes = McpTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class McpPromptsAbsentTests {

	@LocalServerPort
	private int port;

	private McpTestClient client;

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void aSessionHasNoPromptsCapabilityAndNoPromptsMethods() throws Exception {
		JsonNode initialized = json(this.client.post(this.client.initializeBody("2025-11-25")).body()).get("result");
		assertThat(initialized.get("capabilities").has("prompts")).isFalse();
		String session = this.client.initialize("2025-11-25");
		for (String method : new String[] { "prompts/list", "prompts/get" }) {
			JsonNode error = json(this.client.call(session, method, "{\"name\":\"x\"}").body()).get("error");
			assertThat(error.get("code").intValue()).as(method).isEqualTo(-32601);
		}
		JsonNode completion = json(this.client
			.call(session, "completion/complete",
					"{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"x\"},\"argument\":{\"name\":\"a\",\"value\":\"\"}}")
			.body()).get("result").get("completion");
		assertThat(completion.get("values")).isEmpty();
	}

	@Test
	void theStatelessEraListsNoPromptsAndKnowsNoName() throws Exception {
		JsonNode prompts = json(this.client.stateless("server/discover", "").body()).get("result")
			.get("capabilities")
			.get("prompts");
		assertThat(prompts.has("listChanged")).isFalse();
		assertThat(json(this.client.stateless("prompts/list", "").body()).get("result").get("prompts")).isEmpty();
		HttpResponse<String> get = this.client.stateless("prompts/get", "\"name\":\"x\"", "Mcp-Name", "x");
		assertThat(json(get.body()).get("error").get("code").intValue()).isEqualTo(-32602);
		try (SseStream stream = this.client.listen("{\"promptsListChanged\":true}")) {
			JsonNode honoured = json(stream.nextMessage(Duration.ofSeconds(10)).data()).get("params")
				.get("notifications");
			assertThat(honoured.has("promptsListChanged")).as("not advertised, not honoured").isFalse();
		}
	}

}
