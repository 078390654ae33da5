package io.github.mcpsubscriptions.sample;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.tester.McpEventPoll;
import io.github.mcpsubscriptions.tester.McpTester;
import io.github.mcpsubscriptions.tester.McpWebhookReceiver;
import io.github.mcpsubscriptions.tester.McpWebhookReceiver.Delivery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code catalog.product.changed} in profile {@code secure}, by webhook (which needs a
 * principal, so only this profile offers it) to a real HTTPS receiver, and by poll: a
 * client with {@code catalog:restricted} gets the events of products 4 and 5, one with
 * only {@code catalog:read} does not, as it cannot read those products.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT, properties = "mcp.events.webhooks.scan-interval=20ms")
@ActiveProfiles("secure")
class SecureEventsTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	// A defined port: the issuer and the protected resource's URL are written with it.
	private static final int PORT = freePort();

	private static final String BASE = "http://127.0.0.1:" + PORT;

	private static final McpWebhookReceiver receiver = McpWebhookReceiver.start();

	private final HttpClient http = HttpClient.newHttpClient();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("server.port", () -> PORT);
		receiver.serverProperties().forEach((name, value) -> registry.add(name, () -> value));
	}

	@AfterAll
	static void stopReceiver() {
		receiver.close();
	}

	@Test
	void webhooksAndPollsGetOnlyTheProductsTheirPrincipalMayRead() throws Exception {
		String full = token("mcp-full", "catalog:read catalog:restricted catalog:write");
		String limited = token("mcp-limited", "catalog:read");
		String fullId = subscribe(full, "/full").get("id").stringValue();
		String limitedId = subscribe(limited, "/limited").get("id").stringValue();
		assertThat(receiver.verifications()).isEqualTo(2);
		McpEventPoll limitedPoll = McpTester.forUrl(BASE + "/mcp")
			.withBearerToken(limited)
			.pollEvents("catalog.product.changed", Map.of());

		// Restricted product 4 first: once product 2's event is in, 4's would be too.
		assertThat(put(full, 4, "{\"name\":\"Desk chair\",\"price\":190.00}")).isEqualTo(200);
		assertThat(put(full, 2, "{\"name\":\"Notebook\",\"price\":3.60}")).isEqualTo(200);

		List<Delivery> deliveries = receiver.awaitDeliveries(3);
		List<Delivery> toFull = deliveries.stream().filter((delivery) -> delivery.path().equals("/full")).toList();
		List<Delivery> toLimited = deliveries.stream()
			.filter((delivery) -> delivery.path().equals("/limited"))
			.toList();
		assertThat(toFull).extracting((delivery) -> delivery.data().get("id").intValue()).containsExactly(4, 2);
		assertThat(toFull).allSatisfy((delivery) -> assertThat(delivery.subscriptionId()).isEqualTo(fullId));
		assertThat(toLimited).extracting((delivery) -> delivery.data().get("id").intValue()).containsExactly(2);
		assertThat(toLimited.get(0).subscriptionId()).isEqualTo(limitedId);
		assertThat(toLimited.get(0).data().get("change").stringValue()).isEqualTo("updated");
		assertThat(receiver.rejected()).isEmpty();

		assertThat(limitedPoll.next()).extracting((data) -> data.get("id").intValue()).containsExactly(2);
	}

	private JsonNode subscribe(String token, String path) throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"events/subscribe\",\"params\":{"
				+ "\"name\":\"catalog.product.changed\",\"arguments\":{},\"delivery\":{\"mode\":\"webhook\",\"url\":\""
				+ receiver.url(path) + "\",\"secret\":\"" + receiver.newSecret() + "\"},\"cursor\":null,\"_meta\":{"
				+ "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
				+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"test\",\"version\":\"1\"},"
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(URI.create(BASE + "/mcp"))
			.header("Authorization", "Bearer " + token)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", "events/subscribe")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
		JsonNode answer = json.readTree(response.body());
		assertThat(answer.has("result")).as(response.body()).isTrue();
		return answer.get("result");
	}

	private int put(String token, long id, String body) throws Exception {
		return this.http
			.send(HttpRequest.newBuilder(URI.create(BASE + "/api/products/" + id))
				.header("Authorization", "Bearer " + token)
				.header("Content-Type", "application/json")
				.PUT(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.discarding())
			.statusCode();
	}

	private static String token(String client, String scope) {
		MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
		form.add("grant_type", "client_credentials");
		form.add("scope", scope);
		Map<?, ?> answer = RestClient.create()
			.post()
			.uri(BASE + "/oauth2/token")
			.headers((headers) -> headers.setBasicAuth(client, client + "-secret"))
			.contentType(MediaType.APPLICATION_FORM_URLENCODED)
			.body(form)
			.retrieve()
			.body(Map.class);
		return (String) answer.get("access_token");
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
