package io.github.mcpsubscriptions.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.Subscriber;
import io.github.mcpsubscriptions.sample.files.WatchedDirectory;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The official MCP Java SDK client, which nobody here wrote, against the sample
 * application over Streamable HTTP.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class JavaSdkClientInteropTests {

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private NotificationEngine dispatcher;

	@Autowired
	private WatchedDirectory directory;

	private McpSyncClient client() {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.port)
			.endpoint("/mcp")
			.build();
		return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(10)).build();
	}

	@Test
	void listsAndReadsStaticAndTemplatedResources() {
		McpSyncClient client = client();
		try {
			client.initialize();
			assertThat(client.getServerCapabilities().resources().listChanged()).isTrue();
			McpSchema.ListResourcesResult list = client.listResources();
			assertThat(list.resources()).extracting(McpSchema.Resource::uri)
				.contains("catalog://products", "catalog://products/1", "catalog://products/5");
			assertThat(client.listResourceTemplates().resourceTemplates())
				.extracting(McpSchema.ResourceTemplate::uriTemplate)
				.contains("catalog://products/{id}");

			McpSchema.ReadResourceResult collection = client
				.readResource(new McpSchema.ReadResourceRequest("catalog://products"));
			McpSchema.TextResourceContents all = (McpSchema.TextResourceContents) collection.contents().get(0);
			assertThat(all.mimeType()).isEqualTo("application/json");
			assertThat(all.text()).contains("\"id\":1", "\"id\":5");

			McpSchema.ReadResourceResult one = client
				.readResource(new McpSchema.ReadResourceRequest("catalog://products/3"));
			McpSchema.TextResourceContents product = (McpSchema.TextResourceContents) one.contents().get(0);
			assertThat(product.uri()).isEqualTo("catalog://products/3");
			assertThat(product.text()).contains("\"id\":3", "Fountain pen");
		}
		finally {
			client.closeGracefully();
		}
	}

	@Test
	void receivesNotificationTriggeredThroughRestApi() throws Exception {
		BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.port)
			.endpoint("/mcp")
			.build();
		McpSyncClient client = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(10))
			.resourcesUpdateConsumer(updates::add)
			.build();
		try {
			client.initialize();
			assertThat(client.getServerCapabilities().resources().subscribe()).isTrue();
			client.subscribeResource(new McpSchema.SubscribeRequest("catalog://products/2"));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getOpenStreamCount() >= 1);

			HttpResponse<String> put = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/api/products/2"))
					.header("Content-Type", "application/json")
					.PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"Squared notebook\",\"price\":4.20}"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(put.statusCode()).isEqualTo(200);

			// The SDK re-reads the resource it was told about and hands over the
			// contents.
			List<McpSchema.ResourceContents> contents = updates.poll(10, TimeUnit.SECONDS);
			assertThat(contents).as("a notification arrived").isNotNull();
			McpSchema.TextResourceContents product = (McpSchema.TextResourceContents) contents.get(0);
			assertThat(product.uri()).isEqualTo("catalog://products/2");
			assertThat(product.text()).contains("Squared notebook");
		}
		finally {
			client.closeGracefully();
		}
	}

	/**
	 * The SDK client does not declare {@code io.github.mcpsubscriptions/correlation} and
	 * its schema drops {@code subscribedUri}: three subscriptions covering one change
	 * must give it one notification, so that it reads the resource once, not three times.
	 */
	@Test
	void aChangeCoveredByThreeSubscriptionsGivesOneNotificationAndOneRead() throws Exception {
		Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
		BlockingQueue<String> updated = new LinkedBlockingQueue<>();
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.port)
			.endpoint("/mcp")
			// Sees every request the client sends: counts its resources/read calls per
			// URI.
			.httpRequestCustomizer((builder, method, uri, body, context) -> {
				if (body != null && body.contains("\"resources/read\"")) {
					for (String product : List.of("catalog://products/3\"", "catalog://products/4\"")) {
						if (body.contains(product)) {
							reads
								.computeIfAbsent(product.substring(0, product.length() - 1),
										(key) -> new AtomicInteger())
								.incrementAndGet();
						}
					}
				}
			})
			.build();
		McpSyncClient client = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(10))
			.resourcesUpdateConsumer((contents) -> contents.forEach(
					(content) -> updated.add(content.uri() + " " + ((McpSchema.TextResourceContents) content).text())))
			.build();
		try {
			client.initialize();
			for (String uri : List.of("catalog://products", "catalog://products/{id}", "catalog://products/3")) {
				client.subscribeResource(new McpSchema.SubscribeRequest(uri));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getOpenStreamCount() >= 1);
			long sentBefore = this.dispatcher.getStats().getSent();

			put(3, "{\"name\":\"Merged pen\",\"price\":42.00}");
			// Product 4 is covered by two of the subscriptions. Its notification follows
			// product
			// 3's on the stream (often in the same write), but the client reads each
			// resource
			// before it reports the change, and those reads may finish in either order.
			put(4, "{\"name\":\"Merged chair\",\"price\":189.00}");
			List<String> seen = new ArrayList<>();
			await().atMost(Duration.ofSeconds(10)).until(() -> {
				updated.drainTo(seen);
				return seen.stream().anyMatch((entry) -> entry.startsWith("catalog://products/3 "))
						&& seen.stream().anyMatch((entry) -> entry.startsWith("catalog://products/4 "));
			});
			assertThat(this.dispatcher.getStats().getSent() - sentBefore)
				.as("notifications written: one per change, not one per matching subscription")
				.isEqualTo(2);
			updated.drainTo(seen);
			assertThat(seen).filteredOn((entry) -> entry.startsWith("catalog://products/3 "))
				.singleElement()
				.asString()
				.contains("Merged pen");
			assertThat(reads.get("catalog://products/3")).as("reads of product 3").hasValue(1);
			assertThat(reads.get("catalog://products/4")).as("reads of product 4").hasValue(1);
		}
		finally {
			client.closeGracefully();
			// The other tests share the catalogue.
			put(3, "{\"name\":\"Fountain pen\",\"price\":42.00}");
			put(4, "{\"name\":\"Desk chair\",\"price\":189.00}");
		}
	}

	/**
	 * The SDK client re-reads every notified {@code uri}: after a gap, the resync of each
	 * subscription (a template, a collection, a product, a pattern of files) names a
	 * resource it can read, so every re-read answers and none is a template or a glob.
	 */
	@Test
	void afterAGapEveryResyncNamesAResourceTheClientReadsBack() throws Exception {
		List<String> reads = new CopyOnWriteArrayList<>();
		BlockingQueue<String> updated = new LinkedBlockingQueue<>();
		Pattern readUri = Pattern.compile("\"uri\":\"([^\"]*)\"");
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.port)
			.endpoint("/mcp")
			.httpRequestCustomizer((builder, method, uri, body, context) -> {
				if (body != null && body.contains("\"resources/read\"")) {
					Matcher matcher = readUri.matcher(body);
					if (matcher.find()) {
						reads.add(matcher.group(1));
					}
				}
			})
			.build();
		McpSyncClient client = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(10))
			.resourcesUpdateConsumer((contents) -> contents.forEach((content) -> updated.add(content.uri())))
			.build();
		String files = this.directory.getRootUri();
		List<String> subscriptions = List.of("catalog://products/{id}", "catalog://products", "catalog://products/2",
				files + "?pattern=*.txt");
		try {
			client.initialize();
			for (String uri : subscriptions) {
				client.subscribeResource(new McpSchema.SubscribeRequest(uri));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getOpenStreamCount() >= 1);
			Subscriber subscriber = this.dispatcher.getSubscribers()
				.stream()
				.filter((candidate) -> this.dispatcher.getIndex().subscriptionsOf(candidate).containsAll(subscriptions))
				.findFirst()
				.orElseThrow();
			this.dispatcher.resync(subscriber);

			// One resync per subscription, each re-read by the client; a read answered
			// with
			// -32002 would never reach the consumer.
			List<String> reread = new ArrayList<>();
			await().atMost(Duration.ofSeconds(10)).until(() -> {
				updated.drainTo(reread);
				return reread.size() >= subscriptions.size();
			});
			assertThat(reads).containsExactlyInAnyOrder("catalog://products", "catalog://products",
					"catalog://products/2", files);
			assertThat(reread).containsExactlyInAnyOrderElementsOf(reads);
		}
		finally {
			client.closeGracefully();
		}
	}

	private void put(int id, String json) throws Exception {
		HttpResponse<String> put = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/api/products/" + id))
				.header("Content-Type", "application/json")
				.PUT(HttpRequest.BodyPublishers.ofString(json))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(put.statusCode()).isEqualTo(200);
	}

	@Test
	void listsAndCallsToolsAndIsToldOfTheToolsEffect() throws Exception {
		BlockingQueue<List<McpSchema.ResourceContents>> updates = new LinkedBlockingQueue<>();
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.port)
			.endpoint("/mcp")
			.build();
		McpSyncClient client = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(10))
			.resourcesUpdateConsumer(updates::add)
			.build();
		try {
			client.initialize();
			assertThat(client.getServerCapabilities().tools().listChanged()).isTrue();
			McpSchema.ListToolsResult tools = client.listTools();
			assertThat(tools.tools()).extracting(McpSchema.Tool::name).contains("find_products", "change_price");
			McpSchema.CallToolResult found = client
				.callTool(new McpSchema.CallToolRequest("find_products", Map.of("query", "pen")));
			assertThat(found.isError()).isNotEqualTo(Boolean.TRUE);
			assertThat(((McpSchema.TextContent) found.content().get(0)).text()).contains("Fountain pen");
			McpSchema.CallToolResult invalid = client
				.callTool(new McpSchema.CallToolRequest("change_price", Map.of("id", 4)));
			assertThat(invalid.isError()).as("price is missing: a tool error, not an exception").isTrue();

			client.subscribeResource(new McpSchema.SubscribeRequest("catalog://products/4"));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getOpenStreamCount() >= 1);
			McpSchema.CallToolResult changed = client
				.callTool(new McpSchema.CallToolRequest("change_price", Map.of("id", 4, "price", 12.5)));
			assertThat(((McpSchema.TextContent) changed.content().get(0)).text()).contains("is now 12.5");
			List<McpSchema.ResourceContents> contents = updates.poll(10, TimeUnit.SECONDS);
			assertThat(contents).as("the tool's change was announced").isNotNull();
			assertThat(((McpSchema.TextResourceContents) contents.get(0)).text()).contains("12.5");
		}
		finally {
			client.closeGracefully();
		}
	}

	@Test
	void initializesPingsAndCloses() {
		int before = this.sessions.getSessionCount();
		McpSyncClient client = client();
		try {
			McpSchema.InitializeResult result = client.initialize();
			assertThat(result.protocolVersion()).isIn("2025-11-25", "2025-06-18", "2025-03-26");
			assertThat(result.serverInfo().name()).isEqualTo("mcp-subscriptions-sample");
			assertThat(result.instructions()).isNotBlank();
			assertThat(this.sessions.getSessionCount()).isEqualTo(before + 1);
			// The SDK opens the GET stream after notifications/initialized is accepted.
			await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getOpenStreamCount() >= 1);
			assertThat(client.ping()).isNotNull();
			client.setLoggingLevel(McpSchema.LoggingLevel.INFO);
		}
		finally {
			assertThat(client.closeGracefully()).isTrue();
		}
		// Closing sends DELETE: the session and its stream are gone.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getSessionCount() == before);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getOpenStreamCount() == 0);
	}

}
