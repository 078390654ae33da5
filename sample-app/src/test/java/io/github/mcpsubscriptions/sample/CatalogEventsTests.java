package io.github.mcpsubscriptions.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.events.McpEvent;
import io.github.mcpsubscriptions.sample.catalog.ProductChanged;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's MCP event type {@code catalog.product.changed}, polled by a client that
 * knows nothing but the draft (raw 2026-07-28 requests): the REST API's writes are its
 * events, and {@code {"minPrice": 50}} gets only the matching ones, in order;
 * {@code resource.updated} carries the same writes as resource changes.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class CatalogEventsTests {

	private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"test\",\"version\":\"1\"},"
			+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void listOffersTheProductEventsAndResourceUpdated() throws Exception {
		List<String> names = new ArrayList<>();
		call("events/list", "").get("events").forEach((type) -> names.add(type.get("name").stringValue()));
		assertThat(names).contains("catalog.product.changed", "resource.updated");
	}

	@Test
	void theProductEventIsDescribedAsTheSamplesContractSays() throws Exception {
		JsonNode product = null;
		for (JsonNode type : call("events/list", "").get("events")) {
			if (type.get("name").stringValue().equals("catalog.product.changed")) {
				product = type;
			}
		}
		assertThat(product).isNotNull();
		// Declared for the three modes; advertised are those the server serves (push once
		// events/stream is served).
		assertThat(ProductChanged.class.getAnnotation(McpEvent.class).delivery())
			.containsExactly(McpEvent.Delivery.POLL, McpEvent.Delivery.PUSH, McpEvent.Delivery.WEBHOOK);
		assertThat(product.get("delivery").valueStream().map(JsonNode::stringValue)).contains("poll", "webhook")
			.isSubsetOf("poll", "push", "webhook")
			.doesNotHaveDuplicates();
		JsonNode arguments = product.get("inputSchema");
		assertThat(arguments.get("properties").propertyNames()).containsExactlyInAnyOrder("id", "minPrice");
		assertThat(arguments.get("properties").get("id").get("type").stringValue()).isEqualTo("integer");
		assertThat(arguments.get("properties").get("minPrice").get("type").stringValue()).isEqualTo("number");
		assertThat(arguments.has("required")).as("both optional").isFalse();
		JsonNode payload = product.get("payloadSchema").get("properties");
		assertThat(payload.propertyNames()).containsExactly("id", "name", "price", "change");
		assertThat(payload.get("change").get("enum").valueStream().map(JsonNode::stringValue))
			.containsExactly("created", "updated", "deleted");
	}

	@Test
	void aPollWithMinPriceGetsOnlyTheMatchingWritesInOrder() throws Exception {
		String arguments = "\"name\":\"catalog.product.changed\",\"arguments\":{\"minPrice\":50}";
		String cursor = call("events/poll", arguments).get("cursor").stringValue();
		assertThat(rest("PUT", "/api/products/2", "{\"name\":\"Notebook\",\"price\":60.00}")).isEqualTo(200);
		assertThat(rest("PUT", "/api/products/3", "{\"name\":\"Fountain pen\",\"price\":12.00}")).isEqualTo(200);
		assertThat(rest("POST", "/api/products", "{\"name\":\"Bookcase\",\"price\":120.00}")).isEqualTo(201);
		assertThat(rest("PUT", "/api/products/5", "{\"name\":\"Monitor stand\",\"price\":50}")).isEqualTo(200);

		JsonNode result = call("events/poll", arguments + ",\"cursor\":\"" + cursor + "\"");
		List<String> events = new ArrayList<>();
		result.get("events").forEach((event) -> {
			JsonNode data = event.get("data");
			events.add(data.get("name").stringValue() + " "
					+ data.get("price").decimalValue().stripTrailingZeros().toPlainString() + " "
					+ data.get("change").stringValue());
		});
		assertThat(events).containsExactly("Notebook 60 updated", "Bookcase 120 created", "Monitor stand 50 updated");
		assertThat(result.get("events").get(0).get("data").propertyNames()).containsExactly("id", "name", "price",
				"change");
		assertThat(result.get("truncated").booleanValue()).isFalse();

		// The same writes as resource changes.
		String resources = "\"name\":\"resource.updated\",\"arguments\":{\"uri\":\"catalog://products/{id}\"}";
		String resourceCursor = call("events/poll", resources).get("cursor").stringValue();
		assertThat(rest("PUT", "/api/products/1", "{\"name\":\"Desk lamp\",\"price\":24.90}")).isEqualTo(200);
		JsonNode updated = call("events/poll", resources + ",\"cursor\":\"" + resourceCursor + "\"").get("events");
		assertThat(updated).hasSize(1);
		assertThat(updated.get(0).get("data").get("uri").stringValue()).isEqualTo("catalog://products/1");
		assertThat(updated.get(0).get("data").get("_meta").get("change").stringValue()).isEqualTo("updated");
	}

	private JsonNode call(String method, String params) throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":{"
				+ (params.isEmpty() ? "" : params + ",") + META + "}}";
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(URI.create(url("/mcp")))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", method)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode answer = json.readTree(response.body());
		assertThat(answer.has("result")).as(response.body()).isTrue();
		return answer.get("result");
	}

	private int rest(String method, String path, String body) throws Exception {
		return this.http
			.send(HttpRequest.newBuilder(URI.create(url(path)))
				.header("Content-Type", "application/json")
				.method(method, HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString())
			.statusCode();
	}

	private String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

}
