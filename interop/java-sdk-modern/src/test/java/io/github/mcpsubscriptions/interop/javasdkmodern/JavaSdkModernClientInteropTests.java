package io.github.mcpsubscriptions.interop.javasdkmodern;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.sample.SampleApplication;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSubscriptionLostException;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.McpSyncSubscriptionListener;
import io.modelcontextprotocol.modern.client.SubscriptionEvent;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The MCP Java SDK's client for the 2026-07-28 era
 * ({@code io.modelcontextprotocol.modern.client}, SDK 2.2.0), with its defaults, against
 * the sample application on a real port: {@code server/discover}, no session, and
 * resource updates on a {@code subscriptions/listen} stream. The profile "conformance"
 * adds the prompts the suite's scenarios read. Closing a listening closes its connection
 * without a {@code notifications/cancelled}, which the server learns of at the stream's
 * next heartbeat: a short heartbeat interval lets the tests count the server's streams.
 */
@SpringBootTest(classes = SampleApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.files.root=target/sample-data", "mcp.endpoint.heartbeat-interval=300ms" })
@ActiveProfiles("conformance")
class JavaSdkModernClientInteropTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private ListenManager listens;

	@Autowired
	private ApplicationEventPublisher events;

	private McpSyncClient client() {
		return McpClient.sync(HttpClientMcpTransport.builder("http://localhost:" + this.port + "/mcp").build())
			.callTimeout(WAIT)
			.build();
	}

	@Test
	void discoversListsReadsAndGetsAPromptWithoutASession() {
		McpSyncClient client = client();
		McpSchema.DiscoverResult discovered = client.discover();
		assertThat(discovered.supportedVersions()).contains("2026-07-28");
		assertThat(client.resources().list().resources()).extracting(McpSchema.Resource::uri)
			.contains("catalog://products", "catalog://products/1", "catalog://products/5");
		assertThat(client.resourceTemplates().list().resourceTemplates())
			.extracting(McpSchema.ResourceTemplate::uriTemplate)
			.contains("catalog://products/{id}");
		McpSchema.TextResourceContents product = (McpSchema.TextResourceContents) client
			.resource("catalog://products/3")
			.read()
			.contents()
			.get(0);
		assertThat(product.text()).contains("\"id\":3", "Fountain pen");
		McpSchema.GetPromptResult prompt = client.prompt("test_prompt_with_arguments")
			.arguments(Map.of("arg1", "test", "arg2", "modern"))
			.get();
		assertThat(prompt.messages()).singleElement()
			.extracting((message) -> ((McpSchema.TextContent) message.content()).text())
			.isEqualTo("Prompt with arguments: arg1='test', arg2='modern'");
		assertThat(client.tools().list().tools()).extracting(McpSchema.Tool::name)
			.contains("find_products", "change_price");
		assertThat(this.sessions.getSessionCount()).as("the 2026 era has no sessions").isZero();
	}

	/**
	 * A collection and one of its products on one listen stream: exactly one notification
	 * per change, whether it covers both subscriptions (product 2, changed through the
	 * REST API) or the collection only (product 3, an event). Product 4's notification,
	 * sent last down the same stream, is the barrier: once it is in, every earlier one
	 * is, so the counts are exact.
	 */
	@Test
	void aCollectionAndAResourceOnAListenStreamGiveOneNotificationPerChange() throws Exception {
		McpSyncClient client = client();
		Recorder recorder = new Recorder();
		try (McpSyncClient.Listening listening = client.listen()
			.resourceUpdates("catalog://products", "catalog://products/2")
			.open(recorder)) {
			SubscriptionEvent.Subscribed subscribed = (SubscriptionEvent.Subscribed) recorder.events.poll(10,
					TimeUnit.SECONDS);
			assertThat(subscribed).as("the acknowledgement").isNotNull();
			assertThat(subscribed.missing().resourceSubscriptionsOrEmpty()).isEmpty();
			assertThat(subscribed.honoured().resourceSubscriptionsOrEmpty())
				.containsExactlyInAnyOrder("catalog://products", "catalog://products/2");
			await().atMost(WAIT).until(() -> this.listens.getOpenStreamCount() == 1);
			try {
				put(2, "{\"name\":\"Modern notebook\",\"price\":4.20}");
				this.events.publishEvent(new ResourceChangedEvent("catalog://products/3", Map.of()));
				put(4, "{\"name\":\"Modern chair\",\"price\":189.00}");
				await().atMost(WAIT).until(() -> recorder.updated("catalog://products/4") == 1);
				assertThat(recorder.updated("catalog://products/2")).isEqualTo(1);
				assertThat(recorder.updated("catalog://products/3")).isEqualTo(1);
				assertThat(client.resource("catalog://products/2").read().contents()).singleElement()
					.extracting((contents) -> ((McpSchema.TextResourceContents) contents).text())
					.asString()
					.contains("Modern notebook");
			}
			finally {
				put(2, "{\"name\":\"Notebook\",\"price\":3.50}");
				put(4, "{\"name\":\"Desk chair\",\"price\":189.00}");
			}
			assertThat(recorder.errors).isEmpty();
		}
		// Closing the listening cancels the request: the server's stream ends.
		await().atMost(WAIT).until(() -> this.listens.getOpenStreamCount() == 0);
	}

	/**
	 * When the server completes the listen stream (with the listen request's result, as
	 * at shutdown or after {@code mcp.listen.max-duration}), the SDK calls the listener's
	 * {@code onComplete} and does not listen again by itself: the application opens a new
	 * listening. Should a later SDK listen again, this test fails, and
	 * docs/tested-clients.md should say so.
	 */
	@Test
	void whenTheServerCompletesTheStreamTheListenerIsToldAndTheClientDoesNotListenAgain() throws Exception {
		McpSyncClient client = client();
		Recorder recorder = new Recorder();
		try (McpSyncClient.Listening listening = client.listen()
			.resourceUpdates("catalog://products/5")
			.open(recorder)) {
			await().atMost(WAIT).until(() -> this.listens.getOpenStreamCount() == 1);
			this.listens.stop();
			this.listens.start();
			await().atMost(WAIT).until(() -> recorder.completed || !recorder.errors.isEmpty());
			assertThat(recorder.completed).as("onComplete").isTrue();
			assertThat(recorder.errors).isEmpty();
			// Longer than a retry delay a client that listens again would wait.
			await().during(Duration.ofSeconds(3))
				.atMost(Duration.ofSeconds(5))
				.until(() -> this.listens.getOpenStreamCount() == 0);
		}
		assertThat(client.resource("catalog://products/5").read().contents()).isNotEmpty();
	}

	/**
	 * When the connection under the listen stream is cut (no result), the SDK calls
	 * {@code onError} with a {@link McpSubscriptionLostException} and does not listen
	 * again by itself; its requests still work, on a new connection.
	 */
	@Test
	void whenTheConnectionIsCutTheListenerIsToldAndTheClientDoesNotListenAgain() throws Exception {
		try (CuttingProxy proxy = new CuttingProxy(this.port)) {
			McpSyncClient client = McpClient
				.sync(HttpClientMcpTransport.builder("http://localhost:" + proxy.port() + "/mcp").build())
				.callTimeout(WAIT)
				.build();
			Recorder recorder = new Recorder();
			try (McpSyncClient.Listening listening = client.listen()
				.resourceUpdates("catalog://products/5")
				.open(recorder)) {
				await().atMost(WAIT).until(() -> this.listens.getOpenStreamCount() == 1);
				proxy.cut();
				await().atMost(WAIT).until(() -> recorder.completed || !recorder.errors.isEmpty());
				assertThat(recorder.completed).isFalse();
				assertThat(recorder.errors).singleElement().isInstanceOf(McpSubscriptionLostException.class);
				await().atMost(WAIT).until(() -> this.listens.getOpenStreamCount() == 0);
				await().during(Duration.ofSeconds(3))
					.atMost(Duration.ofSeconds(5))
					.until(() -> this.listens.getOpenStreamCount() == 0);
			}
			assertThat(client.resource("catalog://products/5").read().contents()).isNotEmpty();
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

	/** What a listener was told, in order. */
	static final class Recorder implements McpSyncSubscriptionListener {

		final BlockingQueue<SubscriptionEvent> events = new LinkedBlockingQueue<>();

		final List<SubscriptionEvent> all = new CopyOnWriteArrayList<>();

		final List<Throwable> errors = new CopyOnWriteArrayList<>();

		volatile boolean completed;

		@Override
		public void onEvent(SubscriptionEvent event) {
			this.all.add(event);
			this.events.add(event);
		}

		@Override
		public void onError(Throwable error) {
			this.errors.add(error);
		}

		@Override
		public void onComplete() {
			this.completed = true;
		}

		long updated(String uri) {
			return this.all.stream()
				.filter((event) -> event instanceof SubscriptionEvent.ResourceUpdated updated
						&& updated.uri().equals(uri))
				.count();
		}

	}

}
