package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;

import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits per principal hold for the cluster: a principal's sessions and subscriptions
 * are counted on every node, whichever node served them.
 */
class ClusterPrincipalLimitsTests {

	private final ClusterNodes nodes = new ClusterNodes(2);

	@AfterEach
	void close() {
		this.nodes.close();
	}

	@Test
	void sessionsPerPrincipalAreCountedAcrossTheNodes() throws Exception {
		McpTestClient a = client(this.nodes.start("a", "mcp.sessions.max-per-principal=2"));
		McpTestClient b = client(this.nodes.start("b", "mcp.sessions.max-per-principal=2"));
		initialize(a, "alice");
		String onB = initialize(b, "alice");
		HttpResponse<String> refused = a.post(a.initializeBody("2025-11-25"), "X-Test-User", "alice");
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
		assertThat(json(refused.body()).get("error").get("data").get("limit").stringValue())
			.isEqualTo("mcp.sessions.max-per-principal");
		initialize(a, "bob");
		// Ending her session on the other node makes room here.
		assertThat(b
			.send(b.postRequest("{}").DELETE().header("Mcp-Session-Id", onB).header("X-Test-User", "alice").build())
			.statusCode()).isEqualTo(204);
		initialize(a, "alice");
	}

	@Test
	void subscriptionsPerPrincipalAreCountedAcrossTheNodes() throws Exception {
		ConfigurableApplicationContext nodeA = this.nodes.start("a", "mcp.subscriptions.max-per-principal=2");
		McpTestClient a = client(nodeA);
		McpTestClient b = client(this.nodes.start("b", "mcp.subscriptions.max-per-principal=2"));
		String one = initialize(a, "alice");
		String two = initialize(b, "alice");
		assertThat(subscribe(a, one, "c://items/1").get("result")).isNotNull();
		assertThat(subscribe(b, two, "c://items/2").get("result")).isNotNull();
		JsonNode refused = subscribe(a, one, "c://items/3").get("error");
		assertThat(refused).as("the subscription held through node b counts on node a").isNotNull();
		assertThat(refused.get("data").get("limit").stringValue()).isEqualTo("mcp.subscriptions.max-per-principal");
		assertThat(call(b, two, "resources/unsubscribe", "{\"uri\":\"c://items/2\"}").get("result")).isNotNull();
		assertThat(subscribe(a, one, "c://items/3").get("result")).isNotNull();
	}

	private static String initialize(McpTestClient client, String user) throws Exception {
		HttpResponse<String> response = client.post(client.initializeBody("2025-11-25"), "X-Test-User", user);
		assertThat(response.statusCode()).as(user + ": " + response.body()).isEqualTo(200);
		return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
	}

	private static JsonNode subscribe(McpTestClient client, String session, String uri) throws Exception {
		return call(client, session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}");
	}

	private static JsonNode call(McpTestClient client, String session, String method, String params) throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
		HttpResponse<String> response = client.post(body, "Mcp-Session-Id", session, "X-Test-User", "alice");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json(response.body());
	}

}
