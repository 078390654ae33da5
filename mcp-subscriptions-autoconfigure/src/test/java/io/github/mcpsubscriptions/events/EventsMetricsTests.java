package io.github.mcpsubscriptions.events;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.TestUsers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The meters and the {@code mcpEvents} health of the Events extension in a running
 * application, against a real HTTPS receiver: what they read before and after events are
 * published and delivered, and a backlog above
 * {@code mcp.events.webhooks.health-max-backlog} reported down until it drains.
 */
@SpringBootTest(classes = EventsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.events.enabled=true", "mcp.events.webhooks.allowed-networks=127.0.0.0/8",
				"mcp.events.webhooks.ssl-bundle=receiver", "mcp.events.webhooks.scan-interval=20ms",
				"mcp.events.webhooks.initial-backoff=50ms", "mcp.events.webhooks.max-backoff=200ms",
				"mcp.events.webhooks.timeout=1s", "mcp.events.webhooks.health-max-backlog=1" })
@Import(TestUsers.class)
class EventsMetricsTests {

	private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(new byte[32]);

	private static final HttpsReceiver receiver = startReceiver();

	private static int ticket = 5000;

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher publisher;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private ApplicationContext context;

	private McpTestClient client;

	@DynamicPropertySource
	static void receiverTrust(DynamicPropertyRegistry registry) {
		registry.add("spring.ssl.bundle.pem.receiver.truststore.certificate",
				() -> "file:" + receiver.certificate().toAbsolutePath());
	}

	private static HttpsReceiver startReceiver() {
		try {
			Path directory = Files.createTempDirectory("webhook-receiver");
			directory.toFile().deleteOnExit();
			// /slow-once/ holds its first delivery for 3 s, past the 1 s timeout.
			return HttpsReceiver.start(directory, 3000);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@AfterAll
	static void stopReceiver() {
		receiver.close();
	}

	@BeforeEach
	void setUp() {
		this.client = new McpTestClient(this.port);
	}

	@Test
	void publishedAndWebhookDeliveredEventsAreCountedAndTheHealthIsUp() throws Exception {
		String path = "/hooks/metrics";
		subscribe("metrics", path, "{\"queue\":\"metrics\"}");
		double published = count("mcp.events.published", "type", "test.ticket.opened");
		double delivered = count("mcp.events.delivered", "mode", "webhook");
		double attempts = this.meters.get("mcp.events.webhooks.attempts").functionCounter().count();
		long lags = this.meters.get("mcp.events.webhooks.lag").timer().count();

		publish("metrics");
		publish("metrics");
		publish("elsewhere");

		await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() == 2);
		assertThat(count("mcp.events.published", "type", "test.ticket.opened")).isEqualTo(published + 3);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(count("mcp.events.delivered", "mode", "webhook"))
				.isGreaterThanOrEqualTo(delivered + 2));
		assertThat(this.meters.get("mcp.events.webhooks.attempts").functionCounter().count())
			.isGreaterThanOrEqualTo(attempts + 2);
		assertThat(this.meters.get("mcp.events.webhooks.lag").timer().count()).isGreaterThanOrEqualTo(lags + 2);
		assertThat(this.meters.get("mcp.events.subscriptions").tag("mode", "webhook").gauge().value())
			.isGreaterThanOrEqualTo(1);
		// Registered from the start, at zero until push or poll count into them.
		assertThat(this.meters.get("mcp.events.delivered").tag("mode", "poll").functionCounter()).isNotNull();
		assertThat(this.meters.get("mcp.events.subscriptions").tag("mode", "push").gauge().value()).isZero();

		Health health = await().atMost(Duration.ofSeconds(10))
			.until(this::health, (answer) -> answer.getStatus().equals(Status.UP));
		assertThat(health.getDetails()).containsEntry("suspendedWebhooks", 0L)
			.containsEntry("maxWebhookBacklog", 1)
			.containsKeys("webhookBacklog", "webhookSubscriptions", "deliveringWebhooks", "pushStreams", "logPosition");
		assertThat((Integer) health.getDetails().get("webhookSubscriptions")).isGreaterThanOrEqualTo(1);
	}

	@Test
	void aWebhookBacklogAboveTheThresholdIsDownUntilItDrains() throws Exception {
		String path = "/slow-once/backlog";
		subscribe("backlog", path, "{\"queue\":\"backlog\"}");
		// The first delivery times out; the two behind it wait in order.
		publish("backlog");
		publish("backlog");
		publish("backlog");

		Health down = await().atMost(Duration.ofSeconds(10))
			.until(this::health, (answer) -> answer.getStatus().equals(Status.DOWN));
		assertThat((Integer) down.getDetails().get("webhookBacklog")).isGreaterThan(1);
		await().atMost(Duration.ofSeconds(20)).until(() -> receiver.deliveriesAt(path).size() >= 4);
		await().atMost(Duration.ofSeconds(10)).until(() -> health().getStatus().equals(Status.UP));
		assertThat(count("mcp.events.webhooks.failures", "reason", "timeout")).isGreaterThanOrEqualTo(1);
		assertThat(this.meters.get("mcp.events.webhooks.retries").functionCounter().count()).isGreaterThanOrEqualTo(1);
	}

	@Test
	void anEventLogThatCannotBeReadIsDown() {
		EventLog unreachable = new EventLog() {

			@Override
			public String epoch() {
				return "e";
			}

			@Override
			public Instant now() {
				return Instant.now();
			}

			@Override
			public LoggedEvent append(EventType type, Object event, JsonNode data) {
				throw new IllegalStateException("the event log's store cannot be reached");
			}

			@Override
			public void whenAppended(Runnable listener) {
			}

			@Override
			public Slice after(long position) {
				throw new IllegalStateException("the event log's store cannot be reached");
			}

		};
		Health health = new EventsHealthIndicator(this.context.getBean(WebhookDelivery.class),
				this.context.getBean(WebhookSubscriptionStore.class), unreachable, new EventStats(), 1)
			.health(true);
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails().get("error").toString()).contains("cannot be reached");
	}

	@Test
	void theHooksOfPollAndPushMoveTheirMeters() {
		EventStats stats = new EventStats();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new EventMeterBinder(stats, new WebhookStats(), this.context.getBean(EventTypeRegistry.class)).bindTo(registry);
		stats.delivered(EventStats.POLL, 3);
		stats.streamOpened();
		stats.streamOpened();
		stats.streamClosed();
		stats.pushed(Duration.ofMillis(40));
		assertThat(registry.get("mcp.events.delivered").tag("mode", "poll").functionCounter().count()).isEqualTo(3);
		assertThat(registry.get("mcp.events.delivered").tag("mode", "push").functionCounter().count()).isEqualTo(1);
		assertThat(registry.get("mcp.events.subscriptions").tag("mode", "push").gauge().value()).isEqualTo(1);
		assertThat(registry.get("mcp.events.push.lag").timer().count()).isEqualTo(1);
		assertThat(registry.get("mcp.events.published").tag("type", "test.ticket.opened").functionCounter().count())
			.isZero();
	}

	private Health health() {
		return this.context.getBean("mcpEventsHealthIndicator", HealthIndicator.class).health();
	}

	private double count(String name, String tag, String value) {
		return this.meters.get(name).tag(tag, value).functionCounter().count();
	}

	private void publish(String queue) {
		int number;
		synchronized (EventsMetricsTests.class) {
			number = ++ticket;
		}
		this.publisher.publishEvent(new TicketOpened(number, queue));
	}

	private void subscribe(String user, String path, String arguments) throws Exception {
		String params = "\"name\":\"test.ticket.opened\",\"arguments\":" + arguments
				+ ",\"delivery\":{\"mode\":\"webhook\",\"url\":\"" + receiver.url(path) + "\",\"secret\":\"" + SECRET
				+ "\"},\"cursor\":null";
		HttpResponse<String> response = this.client.stateless("events/subscribe", params, "X-Test-User", user);
		JsonNode body = json(response.body());
		assertThat(body.has("result")).as(response.body()).isTrue();
	}

}
