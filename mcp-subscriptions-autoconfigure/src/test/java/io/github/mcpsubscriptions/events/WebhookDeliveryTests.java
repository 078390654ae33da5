package io.github.mcpsubscriptions.events;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Principal;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.github.mcpsubscriptions.events.EventsWire.Cursor;
import io.github.mcpsubscriptions.events.HttpsReceiver.Received;
import io.github.mcpsubscriptions.events.WebhookDelivery.Activation;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.test.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The delivery engine with its scans driven by the test, against a real HTTPS receiver: a
 * subscription the log forgot events of gets a {@code gap} envelope before what is still
 * retained; one whose deliveries keep being abandoned is suspended until a refresh, which
 * says so and resumes it from its watermark.
 */
class WebhookDeliveryTests {

	private static final String SECRET = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

	private final JsonRpcCodec codec = new JsonRpcCodec();

	private final MutableClock clock = new MutableClock(Instant.parse("2026-10-05T12:00:00Z"));

	private final InMemoryEventLog log = new InMemoryEventLog(3, Duration.ofHours(1), this.clock);

	private final EventTypeRegistry types = EventTypeRegistry.of(List.of(TicketOpened.class));

	private final InMemoryWebhookSubscriptionStore store = new InMemoryWebhookSubscriptionStore();

	private final Principal alice = () -> "alice";

	private HttpsReceiver receiver;

	private WebhookHttp http;

	private WebhookDelivery delivery;

	@BeforeEach
	void setUp() throws Exception {
		this.receiver = HttpsReceiver.start(Files.createTempDirectory("receiver"), 0);
		this.http = new WebhookHttp(new CallbackAddresses(List.of("127.0.0.0/8")),
				trusting(this.receiver.certificate()), Duration.ofSeconds(5));
		this.delivery = new WebhookDelivery(this.types, this.log, McpEventAccessPolicy.PERMIT_ALL, this.codec,
				this.store, this.http, new WebhookStats(),
				new WebhookDelivery.Retries(1, Duration.ofMinutes(1), Duration.ofMillis(10), Duration.ofMillis(10), 2),
				Clock.systemUTC(), WebhookThreads.executor(1));
	}

	@AfterEach
	void tearDown() {
		this.delivery.close();
		this.http.close();
		this.receiver.close();
	}

	@Test
	void eventsForgottenBeforeTheyWereReadAreAGapThenWhatIsRetainedFollows() {
		WebhookSubscription subscription = subscription("/hooks/gap");
		this.delivery.activate(subscription, this.alice, new TicketFilter(null), null, null);
		for (int i = 1; i <= 5; i++) {
			record(i);
		}
		this.delivery.scan();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.receiver.at("/hooks/gap").size() == 4);
		List<Received> received = this.receiver.at("/hooks/gap");
		Received gap = received.get(0);
		assertThat(gap.header("webhook-id")).matches("msg_gap_[0-9a-f]+");
		assertThat(gap.json().get("type").stringValue()).isEqualTo("gap");
		Cursor cursor = Cursor.decode(gap.json().get("cursor").stringValue());
		assertThat(cursor.position()).isEqualTo(2);
		assertThat(received.subList(1, 4)).extracting((event) -> event.json().get("data").get("number").intValue())
			.containsExactly(3, 4, 5);
	}

	@Test
	void deliveriesAbandonedInARowSuspendUntilARefreshResumesFromTheWatermark() {
		WebhookSubscription subscription = subscription("/gone/suspending");
		Activation started = this.delivery.activate(subscription, this.alice, new TicketFilter(null), null, null);
		record(1);
		record(2);
		record(3);
		this.delivery.scan();
		// 410 is not retried; two abandoned in a row suspend: the third is not sent.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> !this.store.get(subscription.id(), this.clock.instant()).active());
		this.delivery.scan();
		assertThat(this.receiver.at("/gone/suspending")).hasSize(2);
		assertThat(this.delivery.getBacklog()).isZero();
		// The refresh reports the suspension, then delivery resumes after the abandoned.
		Activation refreshed = this.delivery.activate(WebhookDelivery.withActive(subscription, true), this.alice,
				new TicketFilter(null), Cursor.decode(started.cursor()), null);
		assertThat(refreshed.status().active()).isFalse();
		assertThat(refreshed.status().lastError()).isEqualTo("http_4xx");
		assertThat(Cursor.decode(refreshed.cursor()).position()).isEqualTo(2);
		this.store.put(WebhookDelivery.withActive(subscription, true));
		this.delivery.scan();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.receiver.at("/gone/suspending").size() == 3);
		assertThat(this.receiver.at("/gone/suspending").get(2).json().get("data").get("number").intValue())
			.isEqualTo(3);
	}

	private WebhookSubscription subscription(String path) {
		WebhookSubscription subscription = new WebhookSubscription(
				WebhookMethods.id("alice", this.receiver.url(path), "test.ticket.opened",
						this.codec.createObjectNode()),
				"alice", this.receiver.url(path), "test.ticket.opened", this.codec.createObjectNode(), SECRET, null,
				null, this.clock.instant().plusSeconds(600), true);
		this.store.put(subscription);
		return subscription;
	}

	private void record(int number) {
		TicketOpened event = new TicketOpened(number, "any");
		EventType type = this.types.get("test.ticket.opened");
		this.log.append(type, event, EventRecorder.payload(type, event, this.codec));
	}

	private static SSLContext trusting(Path certificate) throws Exception {
		KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
		trusted.load(null, null);
		try (InputStream in = Files.newInputStream(certificate)) {
			trusted.setCertificateEntry("receiver", CertificateFactory.getInstance("X.509").generateCertificate(in));
		}
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(trusted);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trust.getTrustManagers(), null);
		return context;
	}

}
