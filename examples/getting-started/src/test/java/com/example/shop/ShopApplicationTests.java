package com.example.shop;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guide's application as an AI application sees it: the official MCP Java SDK client
 * lists and reads the orders, subscribes, and is told when an order ships, through the REST
 * API or through the tool.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ShopApplicationTests {

	@LocalServerPort
	private int port;

	private final BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();

	private McpSyncClient client;

	@BeforeEach
	void connect() {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://127.0.0.1:" + this.port)
			.endpoint("/mcp")
			.build();
		this.client = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(10))
			.resourcesUpdateConsumer(this.updates::add)
			.build();
		this.client.initialize();
	}

	@AfterEach
	void close() {
		this.client.closeGracefully();
	}

	@Test
	void listsAndReadsOrders() {
		assertThat(this.client.listResources().resources()).extracting(McpSchema.Resource::uri)
			.contains("shop://orders", "shop://orders/1", "shop://orders/42");
		McpSchema.TextResourceContents order = (McpSchema.TextResourceContents) this.client
			.readResource(new McpSchema.ReadResourceRequest("shop://orders/42"))
			.contents()
			.get(0);
		assertThat(order.text()).contains("\"item\":\"Ink, blue\"");
	}

	@Test
	void aSubscriberIsToldWhenAnOrderShipsThroughTheRestApi() throws Exception {
		this.client.subscribeResource(new McpSchema.SubscribeRequest("shop://orders/2"));

		HttpResponse<String> shipped = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/orders/2/ship"))
				.POST(HttpRequest.BodyPublishers.noBody())
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(shipped.statusCode()).isEqualTo(200);

		// The SDK client re-reads the resource it is told about and hands over what it read.
		assertThat(nextUpdate()).contains("\"id\":2", "\"status\":\"shipped\"");
	}

	@Test
	void aSubscriberOfTheCollectionIsToldWhenTheToolShipsAnOrder() throws Exception {
		this.client.subscribeResource(new McpSchema.SubscribeRequest("shop://orders"));

		McpSchema.CallToolResult result = this.client
			.callTool(new McpSchema.CallToolRequest("ship_order", Map.of("id", 1)));
		assertThat(((McpSchema.TextContent) result.content().get(0)).text())
			.isEqualTo("Order 1 (Fountain pen) is shipped.");

		assertThat(nextUpdate()).contains("\"id\":1", "\"status\":\"shipped\"");
	}

	private String nextUpdate() throws InterruptedException {
		List<McpSchema.ResourceContents> contents = this.updates.poll(10, TimeUnit.SECONDS);
		assertThat(contents).as("a notification within 10 s").isNotNull();
		return ((McpSchema.TextResourceContents) contents.get(0)).text();
	}

}
