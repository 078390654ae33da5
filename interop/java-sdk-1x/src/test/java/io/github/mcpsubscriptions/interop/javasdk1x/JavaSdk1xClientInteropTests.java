package io.github.mcpsubscriptions.interop.javasdk1x;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsubscriptions.interop.javasdk1x.InteropApplication.Catalog;
import io.github.mcpsubscriptions.notification.NotificationEngine;
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
 * The official MCP Java SDK 1.x client against the starter, with the default settings:
 * 1.x clients reject an SSE {@code retry:} field, which the server never sends in the
 * priming event.
 */
@SpringBootTest(classes = InteropApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class JavaSdk1xClientInteropTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private NotificationEngine dispatcher;

	@Autowired
	private Catalog catalog;

	@Test
	void initializesListsReadsAndCloses() {
		int before = this.sessions.getSessionCount();
		McpSyncClient client = McpClient.sync(transport().build()).requestTimeout(WAIT).build();
		try {
			McpSchema.InitializeResult result = client.initialize();
			assertThat(result.protocolVersion()).startsWith("2025-");
			assertThat(result.capabilities().resources().subscribe()).isTrue();
			assertThat(this.sessions.getSessionCount()).isEqualTo(before + 1);
			assertThat(client.listResources().resources()).extracting(McpSchema.Resource::uri)
				.contains("catalog://products", "catalog://products/1", "catalog://products/4");
			assertThat(client.listResourceTemplates().resourceTemplates())
				.extracting(McpSchema.ResourceTemplate::uriTemplate)
				.containsExactly("catalog://products/{id}");
			McpSchema.ReadResourceResult read = client
				.readResource(new McpSchema.ReadResourceRequest("catalog://products/2"));
			assertThat(((McpSchema.TextResourceContents) read.contents().get(0)).text()).contains("Notebook");
			// The client opens the session's GET stream once initialized, and keeps it.
			await().atMost(WAIT).until(() -> this.sessions.getOpenStreamCount() >= 1);
			assertThat(client.ping()).isNotNull();
		}
		finally {
			assertThat(client.closeGracefully()).isTrue();
		}
		await().atMost(WAIT).until(() -> this.sessions.getSessionCount() == before);
	}

	/**
	 * The 1.x client does not declare {@code io.github.mcpsubscriptions/correlation}:
	 * three subscriptions covering a change give it one notification, and one read.
	 */
	@Test
	void aChangeCoveredByThreeSubscriptionsGivesOneNotificationAndOneRead() {
		Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
		BlockingQueue<String> updated = new LinkedBlockingQueue<>();
		HttpClientStreamableHttpTransport transport = transport()
			// Sees every request the client sends: counts its resources/read calls per
			// product.
			.httpRequestCustomizer((builder, method, uri, body, context) -> {
				for (String product : List.of("catalog://products/3", "catalog://products/4")) {
					if (body != null && body.contains("\"resources/read\"") && body.contains(product + "\"")) {
						reads.computeIfAbsent(product, (key) -> new AtomicInteger()).incrementAndGet();
					}
				}
			})
			.build();
		McpSyncClient client = McpClient.sync(transport)
			.requestTimeout(WAIT)
			.resourcesUpdateConsumer((contents) -> contents.forEach(
					(content) -> updated.add(content.uri() + " " + ((McpSchema.TextResourceContents) content).text())))
			.build();
		try {
			client.initialize();
			for (String uri : List.of("catalog://products", "catalog://products/{id}", "catalog://products/3")) {
				client.subscribeResource(new McpSchema.SubscribeRequest(uri));
			}
			await().atMost(WAIT).until(() -> this.sessions.getOpenStreamCount() >= 1);
			long sentBefore = this.dispatcher.getStats().getSent();

			this.catalog.rename(3, "Merged pen");
			// Product 4 is covered by two of the subscriptions. Its notification follows
			// product
			// 3's on the stream (often in the same write), but the client reads each
			// resource
			// before it reports the change, and those reads may finish in either order.
			this.catalog.rename(4, "Merged chair");
			List<String> seen = new ArrayList<>();
			await().atMost(WAIT).until(() -> {
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
		}
	}

	private HttpClientStreamableHttpTransport.Builder transport() {
		return HttpClientStreamableHttpTransport.builder("http://localhost:" + this.port).endpoint("/mcp");
	}

}
