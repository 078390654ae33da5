package io.github.mcpsubscriptions.events;

import java.net.http.HttpResponse;

import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Off by default: no extension in {@code server/discover}, and every {@code events/*}
 * method answered {@code -32601}, as the draft asks of a server without the extension.
 */
@SpringBootTest(classes = EventsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class EventsDisabledTests {

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationContext context;

	@Test
	void eventsMethodsAreNotFoundAndTheExtensionIsNotAdvertised() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		for (String method : new String[] { "events/list", "events/poll", "events/stream", "events/subscribe",
				"events/unsubscribe" }) {
			HttpResponse<String> response = client.stateless(method, "\"name\":\"catalog.product.changed\"");
			assertThat(json(response.body()).get("error").get("code").intValue()).as(method).isEqualTo(-32601);
		}
		JsonNode capabilities = json(client.stateless("server/discover", "").body()).get("result").get("capabilities");
		JsonNode extensions = capabilities.get("extensions");
		assertThat(extensions == null || !extensions.has("io.modelcontextprotocol/events")).isTrue();
		assertThat(this.context.getBeanNamesForType(EventLog.class)).isEmpty();
	}

}
