package io.github.mcpsubscriptions.interop.langchain4j;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.McpResource;
import dev.langchain4j.mcp.client.McpResourceTemplate;
import dev.langchain4j.mcp.client.McpTextResourceContents;
import dev.langchain4j.mcp.client.transport.http.StreamableHttpMcpTransport;
import dev.langchain4j.service.tool.ToolExecutionResult;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.sample.SampleApplication;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.SessionEndReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The LangChain4j MCP client ({@code DefaultMcpClient} over its Streamable HTTP
 * transport) against the sample application. LangChain4j opens the session's GET stream,
 * which carries the notifications, only when asked to: {@code subsidiaryChannel(true)};
 * everything else is its defaults. Its {@code onResourceUpdated} callback gets each
 * notified URI.
 */
@SpringBootTest(classes = SampleApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "sample.files.root=target/sample-data")
class LangChain4jClientInteropTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private NotificationEngine dispatcher;

	@Autowired
	private ApplicationEventPublisher events;

	/** The URI of each {@code notifications/resources/updated}, in order of arrival. */
	private final BlockingQueue<String> updates = new LinkedBlockingQueue<>();

	/** Tells this test's session from those of the tests before it. */
	private final String clientName = "langchain4j-interop-" + UUID.randomUUID();

	private DefaultMcpClient client;

	@BeforeEach
	void connect() {
		StreamableHttpMcpTransport transport = new StreamableHttpMcpTransport.Builder()
			.url("http://localhost:" + this.port + "/mcp")
			.subsidiaryChannel(true)
			.build();
		// Connects and initializes.
		this.client = new DefaultMcpClient.Builder().transport(transport)
			.clientName(this.clientName)
			.onResourceUpdated((client, uri) -> this.updates.add(uri))
			.build();
	}

	/**
	 * LangChain4j sends no DELETE when it closes, and on Java 17 its HTTP client keeps
	 * the GET stream's connection: the session would live until its idle timeout, so the
	 * test ends it as that timeout would.
	 */
	@AfterEach
	void close() throws Exception {
		this.client.close();
		this.sessions.getSessions()
			.stream()
			.filter(this::isThisClients)
			.forEach((session) -> this.sessions.end(session.getId(), SessionEndReason.EXPIRED));
	}

	@Test
	void connectsListsAndReads() {
		assertThat(this.client.listResources()).extracting(McpResource::uri)
			.contains("catalog://products", "catalog://products/1", "catalog://products/5");
		assertThat(this.client.listResourceTemplates()).extracting(McpResourceTemplate::uriTemplate)
			.contains("catalog://products/{id}");
		McpTextResourceContents product = (McpTextResourceContents) this.client.readResource("catalog://products/3")
			.contents()
			.get(0);
		assertThat(product.uri()).isEqualTo("catalog://products/3");
		assertThat(product.text()).contains("\"id\":3", "Fountain pen");
		McpSession session = sessionWithStream();
		assertThat(session.getProtocolVersion()).isEqualTo("2025-11-25");
	}

	/**
	 * A resource and its collection: one notification per change, whether the change
	 * comes through the REST API or as an event; after unsubscribing, none.
	 */
	@Test
	void aResourceAndItsCollectionGiveOneNotificationPerChangeUntilUnsubscribed() throws Exception {
		sessionWithStream();
		this.client.subscribeToResource("catalog://products/2");
		this.client.subscribeToResource("catalog://products");
		long sentBefore = this.dispatcher.getStats().getSent();
		List<String> seen = new ArrayList<>();
		try {
			put(2, "{\"name\":\"Chained notebook\",\"price\":3.50}");
			awaitUpdate(seen, "catalog://products/2");
			// Product 3 through an event, covered by the collection only.
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/3", Map.of()));
			awaitUpdate(seen, "catalog://products/3");

			this.client.unsubscribeFromResource("catalog://products/2");
			this.client.unsubscribeFromResource("catalog://products");
			// What follows a change nobody follows any more is this one, on another
			// product.
			this.client.subscribeToResource("catalog://products/5");
			put(2, "{\"name\":\"Unfollowed notebook\",\"price\":3.50}");
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/5", Map.of()));
			awaitUpdate(seen, "catalog://products/5");
			// The client reports notifications in the order of the stream.
			assertThat(seen).containsExactly("catalog://products/2", "catalog://products/3", "catalog://products/5");
			assertThat(this.dispatcher.getStats().getSent() - sentBefore).isEqualTo(3);
		}
		finally {
			put(2, "{\"name\":\"Notebook\",\"price\":3.50}");
		}
	}

	/**
	 * When the server ends the GET stream (as it does for a slow consumer, after an SSE
	 * {@code retry} field), LangChain4j reopens it after that delay with
	 * {@code Last-Event-ID}, on the same session, and notifications go on.
	 */
	@Test
	void reopensTheStreamTheServerEndedAndNotificationsGoOn() throws Exception {
		McpSession session = sessionWithStream();
		this.client.subscribeToResource("catalog://products/4");
		this.sessions.getStream(session.getId()).close();
		await().atMost(WAIT).until(() -> this.sessions.getStream(session.getId()) == null);
		await().atMost(WAIT).until(() -> this.sessions.getStream(session.getId()) != null);
		try {
			put(4, "{\"name\":\"Reconnected chair\",\"price\":189.00}");
			List<String> seen = new ArrayList<>();
			awaitUpdate(seen, "catalog://products/4");
			assertThat(seen).containsExactly("catalog://products/4");
		}
		finally {
			put(4, "{\"name\":\"Desk chair\",\"price\":189.00}");
		}
	}

	@Test
	void listsAndCallsTools() throws Exception {
		assertThat(this.client.listTools()).extracting(ToolSpecification::name)
			.contains("find_products", "change_price");
		ToolExecutionResult found = this.client
			.executeTool(ToolExecutionRequest.builder().name("find_products").arguments("{\"query\":\"pen\"}").build());
		assertThat(found.isError()).isFalse();
		assertThat(found.resultText()).contains("Fountain pen");
		// A tool error (price is missing) is an exception in LangChain4j.
		assertThatExceptionOfType(ToolExecutionException.class)
			.isThrownBy(() -> this.client
				.executeTool(ToolExecutionRequest.builder().name("change_price").arguments("{\"id\":4}").build()))
			.withMessageContaining("\"price\" is required");

		sessionWithStream();
		this.client.subscribeToResource("catalog://products/1");
		try {
			ToolExecutionResult changed = this.client.executeTool(
					ToolExecutionRequest.builder().name("change_price").arguments("{\"id\":1,\"price\":31.5}").build());
			assertThat(changed.resultText()).contains("is now 31.5");
			awaitUpdate(new ArrayList<>(), "catalog://products/1");
		}
		finally {
			put(1, "{\"name\":\"Desk lamp\",\"price\":24.90}");
		}
	}

	/** The client's session, once its GET stream is open. */
	private McpSession sessionWithStream() {
		await().atMost(WAIT)
			.until(() -> this.sessions.getSessions()
				.stream()
				.anyMatch((session) -> isThisClients(session) && this.sessions.getStream(session.getId()) != null));
		return this.sessions.getSessions().stream().filter(this::isThisClients).findFirst().orElseThrow();
	}

	private boolean isThisClients(McpSession session) {
		JsonNode name = session.getClientInfo().get("name");
		return name != null && this.clientName.equals(name.asString());
	}

	private void awaitUpdate(List<String> seen, String uri) {
		await().atMost(WAIT).until(() -> {
			this.updates.drainTo(seen);
			return seen.contains(uri);
		});
	}

	private void put(int id, String json) throws Exception {
		HttpResponse<String> put = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/api/products/" + id))
				.header("Content-Type", "application/json")
				.PUT(HttpRequest.BodyPublishers.ofString(json))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(put.statusCode()).isEqualTo(200);
	}

}
