package io.github.mcpsubscriptions.events;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.github.mcpsubscriptions.events.HttpsReceiver.Received;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.TestUsers;
import io.micrometer.core.instrument.MeterRegistry;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Webhooks end to end, by a client that knows nothing but the draft (SEP-3415 of
 * 2026-10-05), against a real HTTPS receiver on loopback: its certificate made for the
 * test and trusted through an SSL bundle, loopback allowed by
 * {@code mcp.events.webhooks.allowed-networks}. Signatures are checked here from the
 * secret, over the raw bytes received.
 */
@SpringBootTest(classes = { EventsTestApplication.class, WebhooksTests.Config.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.events.enabled=true", "mcp.events.webhooks.allowed-networks=127.0.0.0/8",
				"mcp.events.webhooks.ssl-bundle=receiver", "mcp.events.webhooks.scan-interval=20ms",
				"mcp.events.webhooks.initial-backoff=50ms", "mcp.events.webhooks.max-backoff=200ms",
				"mcp.events.webhooks.max-attempts=3", "mcp.events.webhooks.timeout=3s",
				"mcp.events.webhooks.min-ttl=1s", "mcp.events.webhooks.default-ttl=10m",
				"mcp.events.webhooks.max-ttl=1h", "mcp.events.webhooks.max-subscriptions-per-principal=20" })
class WebhooksTests {

	private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(bytes(32, 1));

	private static final String OTHER_SECRET = "whsec_" + Base64.getEncoder().encodeToString(bytes(32, 7));

	private static final String TICKETS = "\"name\":\"test.ticket.opened\"";

	private static final String MARKER = "/hooks/marker";

	private static final HttpsReceiver receiver = startReceiver();

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher publisher;

	@Autowired
	private MutableClock clock;

	@Autowired
	private MeterRegistry meters;

	private McpTestClient client;

	private static int ticket = 1000;

	/** The queue whose subscriptions the policy refuses from now on, if any. */
	private static volatile String revokedQueue;

	@DynamicPropertySource
	static void receiverTrust(DynamicPropertyRegistry registry) {
		registry.add("spring.ssl.bundle.pem.receiver.truststore.certificate",
				() -> "file:" + receiver.certificate().toAbsolutePath());
	}

	private static HttpsReceiver startReceiver() {
		try {
			Path directory = Files.createTempDirectory("webhook-receiver");
			directory.toFile().deleteOnExit();
			return HttpsReceiver.start(directory, 6000);
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
	void setUp() throws Exception {
		this.client = new McpTestClient(this.port);
		// Receives every ticket from here on: shows how far the log was read.
		subscribe("marker", MARKER, "{}", SECRET, "");
	}

	@Test
	void listAdvertisesWebhookForTheTypesThatOfferIt() throws Exception {
		JsonNode list = result(this.client.stateless("events/list", ""));
		for (JsonNode type : list.get("events")) {
			if (type.get("name").stringValue().equals("test.ticket.opened")) {
				assertThat(type.get("delivery")).extracting(JsonNode::stringValue).containsExactly("poll", "webhook");
			}
			if (type.get("name").stringValue().equals("catalog.product.changed")) {
				assertThat(type.get("delivery")).extracting(JsonNode::stringValue).containsExactly("poll");
			}
		}
	}

	@Test
	void verifiedEndpointGetsEveryMatchingEventExactlyAsSignedInOrderThenNoneAfterUnsubscribe() throws Exception {
		String path = "/hooks/in-order";
		JsonNode subscribed = subscribe("alice", path, "{\"queue\":\"billing\"}", SECRET, ",\"ttlMs\":600000");
		String id = subscribed.get("id").stringValue();
		assertThat(subscribed.get("resultType").stringValue()).isEqualTo("complete");
		assertThat(id).matches("sub_[0-9a-f]{16}");
		assertThat(Instant.parse(subscribed.get("refreshBefore").stringValue()))
			.isEqualTo(this.clock.instant().plus(Duration.ofMinutes(10)));
		assertThat(subscribed.get("cursor").isString()).isTrue();
		assertThat(subscribed.get("truncated").booleanValue()).isFalse();
		assertThat(subscribed.has("deliveryStatus")).as("only on a refresh").isFalse();
		// Verified before anything else, while events/subscribe was being handled.
		List<Received> received = receiver.at(path);
		assertThat(received).hasSize(1);
		Received verification = received.get(0);
		assertThat(verification.header("webhook-id")).matches("msg_verification_[0-9a-f]+");
		assertThat(verification.header("X-MCP-Subscription-Id")).isEqualTo(id);
		assertThat(verification.header("Content-Type")).isEqualTo("application/json");
		assertSigned(verification, SECRET);
		assertThat(verification.json().propertyNames()).containsExactly("type", "challenge");
		int first = publish("billing");
		publish("sales");
		int third = publish("billing");
		int fourth = publish("billing");
		await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() >= 3);
		List<Received> deliveries = receiver.deliveriesAt(path);
		assertThat(deliveries).extracting((delivery) -> delivery.json().get("data").get("number").intValue())
			.containsExactly(first, third, fourth);
		String lastCursor = null;
		for (Received delivery : deliveries) {
			assertThat(delivery.method()).isEqualTo("POST");
			assertSigned(delivery, SECRET);
			assertThat(delivery.header("X-MCP-Subscription-Id")).isEqualTo(id);
			JsonNode body = delivery.json();
			assertThat(body.propertyNames()).containsExactly("eventId", "name", "timestamp", "data", "cursor");
			assertThat(delivery.header("webhook-id")).isEqualTo(body.get("eventId").stringValue());
			assertThat(body.get("name").stringValue()).isEqualTo("test.ticket.opened");
			assertThat(body.get("data").get("queue").stringValue()).isEqualTo("billing");
			assertThat(body.get("cursor").stringValue()).isNotEqualTo(lastCursor);
			lastCursor = body.get("cursor").stringValue();
		}
		// A refresh: same key, same id, no second verification, the status of delivery.
		JsonNode refreshed = subscribe("alice", path, "{\"queue\":\"billing\"}", SECRET, "");
		assertThat(refreshed.get("id").stringValue()).isEqualTo(id);
		assertThat(refreshed.get("cursor").stringValue()).isEqualTo(lastCursor);
		JsonNode status = refreshed.get("deliveryStatus");
		assertThat(status.get("active").booleanValue()).isTrue();
		assertThat(status.get("lastError").isNull()).isTrue();
		assertThat(status.has("lastDeliveryAt")).isTrue();
		assertThat(receiver.at(path).stream().filter(Received::isVerification)).hasSize(1);
		// Another principal, same URL, name and arguments: another subscription, verified
		// for itself.
		JsonNode bobs = subscribe("bob", path, "{\"queue\":\"billing\"}", OTHER_SECRET, "");
		assertThat(bobs.get("id").stringValue()).isNotEqualTo(id);
		assertThat(receiver.at(path).stream().filter(Received::isVerification)).hasSize(2);
		unsubscribe("bob", path, "{\"queue\":\"billing\"}");
		// Unsubscribed: nothing more, even for what matches (a marker shows the log was
		// read past it).
		JsonNode unsubscribed = result(this.client.stateless("events/unsubscribe", TICKETS
				+ ",\"arguments\":{\"queue\":\"billing\"},\"delivery\":{\"url\":\"" + receiver.url(path) + "\"}",
				"X-Test-User", "alice"));
		assertThat(unsubscribed.get("resultType").stringValue()).isEqualTo("complete");
		int after = publish("billing");
		awaitMarkerPast(after);
		assertThat(receiver.deliveriesAt(path)).hasSize(3);
		JsonNode again = error(this.client.stateless("events/unsubscribe", TICKETS
				+ ",\"arguments\":{\"queue\":\"billing\"},\"delivery\":{\"url\":\"" + receiver.url(path) + "\"}",
				"X-Test-User", "alice"));
		assertThat(again.get("code").intValue()).isEqualTo(-32023);
		assertThat(again.get("message").stringValue()).isEqualTo("NotFound");
		assertThat(again.get("data").toString()).isEqualTo("{\"kind\":\"subscription\"}");
		assertThat(this.meters.get("mcp.events.webhooks.attempts").functionCounter().count()).isGreaterThanOrEqualTo(3);
		assertThat(this.meters.get("mcp.events.webhooks.lag").timer().count()).isGreaterThanOrEqualTo(3);
	}

	@Test
	void anEventAnswered500IsRetriedWithTheSameIdAndAFreshSignatureThenTheNextFollows() throws Exception {
		String path = "/fail-twice/hook";
		subscribe("alice", path, "{\"queue\":\"retry\"}", SECRET, "");
		double failures = this.meters.get("mcp.events.webhooks.failures")
			.tag("reason", "http_5xx")
			.functionCounter()
			.count();
		int first = publish("retry");
		int second = publish("retry");
		await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() >= 4);
		List<Received> deliveries = receiver.deliveriesAt(path);
		assertThat(deliveries).extracting((delivery) -> delivery.json().get("data").get("number").intValue())
			.containsExactly(first, first, first, second);
		assertThat(deliveries.subList(0, 3)).extracting((delivery) -> delivery.header("webhook-id"))
			.containsOnly(deliveries.get(0).header("webhook-id"));
		deliveries.forEach((delivery) -> assertSigned(delivery, SECRET));
		assertThat(this.meters.get("mcp.events.webhooks.failures").tag("reason", "http_5xx").functionCounter().count())
			.isEqualTo(failures + 2);
		assertThat(this.meters.get("mcp.events.webhooks.retries").functionCounter().count()).isGreaterThanOrEqualTo(2);
	}

	@Test
	void anEventThatTimesOutIsRetried() throws Exception {
		String path = "/slow-once/hook";
		subscribe("alice", path, "{\"queue\":\"slow\"}", SECRET, "");
		int first = publish("slow");
		int second = publish("slow");
		await().atMost(Duration.ofSeconds(15)).until(() -> receiver.deliveriesAt(path).size() >= 3);
		assertThat(receiver.deliveriesAt(path))
			.extracting((delivery) -> delivery.json().get("data").get("number").intValue())
			.containsExactly(first, first, second);
		JsonNode status = subscribe("alice", path, "{\"queue\":\"slow\"}", SECRET, "").get("deliveryStatus");
		assertThat(status.get("active").booleanValue()).isTrue();
	}

	@Test
	void goneIsNotRetried() throws Exception {
		String path = "/gone/hook";
		subscribe("alice", path, "{\"queue\":\"gone\"}", SECRET, "");
		int first = publish("gone");
		int second = publish("gone");
		await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() >= 2);
		int third = publish("gone");
		await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() >= 3);
		awaitMarkerPast(third);
		// Each once: 410 is not retried, and the next event follows at once.
		assertThat(receiver.deliveriesAt(path))
			.extracting((delivery) -> delivery.json().get("data").get("number").intValue())
			.containsExactly(first, second, third);
		JsonNode status = subscribe("alice", path, "{\"queue\":\"gone\"}", SECRET, "").get("deliveryStatus");
		assertThat(status.get("lastError").stringValue()).isEqualTo("http_4xx");
	}

	@Test
	void nothingArrivesOnceTheTtlHasLapsed() throws Exception {
		String path = "/hooks/lapsing";
		JsonNode subscribed = subscribe("alice", path, "{\"queue\":\"ttl\"}", SECRET, ",\"ttlMs\":5000");
		assertThat(Instant.parse(subscribed.get("refreshBefore").stringValue()))
			.isEqualTo(this.clock.instant().plusSeconds(5));
		int before = publish("ttl");
		await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() == 1);
		this.clock.advance(Duration.ofSeconds(6));
		int after = publish("ttl");
		awaitMarkerPast(after);
		assertThat(receiver.deliveriesAt(path))
			.extracting((delivery) -> delivery.json().get("data").get("number").intValue())
			.containsExactly(before);
		// Lapsed: unknown now, and a subscribe again is a fresh one.
		JsonNode gone = error(this.client.stateless("events/unsubscribe",
				TICKETS + ",\"arguments\":{\"queue\":\"ttl\"},\"delivery\":{\"url\":\"" + receiver.url(path) + "\"}",
				"X-Test-User", "alice"));
		assertThat(gone.get("code").intValue()).isEqualTo(-32023);
		assertThat(subscribe("alice", path, "{\"queue\":\"ttl\"}", SECRET, "").has("deliveryStatus")).isFalse();
	}

	@Test
	void ttlsAreClampedNeverRefused() throws Exception {
		Instant now = this.clock.instant();
		JsonNode longer = subscribe("alice", "/hooks/ttl-long", "{}", SECRET, ",\"ttlMs\":999999999999");
		assertThat(Instant.parse(longer.get("refreshBefore").stringValue())).isEqualTo(now.plus(Duration.ofHours(1)));
		JsonNode noExpiry = subscribe("alice", "/hooks/ttl-null", "{}", SECRET, ",\"ttlMs\":null");
		assertThat(noExpiry.get("refreshBefore").isNull()).as("no expiry is not granted by the in-memory store")
			.isFalse();
		JsonNode shorter = subscribe("alice", "/hooks/ttl-short", "{}", SECRET, ",\"ttlMs\":1");
		assertThat(Instant.parse(shorter.get("refreshBefore").stringValue())).isEqualTo(now.plusSeconds(1));
	}

	@Test
	void refusedTargetsAndBadRequestsGetThePreciseError() throws Exception {
		assertError(subscribeRaw(null, "https://localhost:" + receiver.port() + "/x", "{}", SECRET), -32024,
				"Forbidden");
		assertError(subscribeRaw("alice", "http://localhost:" + receiver.port() + "/x", "{}", SECRET), -32602,
				"must be an https URL");
		assertError(subscribeRaw("alice", "https://192.168.1.20/hook", "{}", SECRET), -32602, "globally routable");
		assertError(subscribeRaw("alice", "https://[::1]:" + receiver.port() + "/hook", "{}", SECRET), -32602,
				"globally routable");
		assertError(subscribeRaw("alice", "https://[::ffff:10.1.2.3]/hook", "{}", SECRET), -32602, "globally routable");
		assertError(subscribeRaw("alice", receiver.url("/x"), "{}", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="),
				-32602, "whsec_");
		assertError(subscribeRaw("alice", receiver.url("/x"), "{}",
				"whsec_" + Base64.getEncoder().encodeToString(bytes(23, 0))), -32602, "not 23");
		assertError(subscribeRaw("alice", receiver.url("/x"), "{}",
				"whsec_" + Base64.getEncoder().encodeToString(bytes(65, 0))), -32602, "not 65");
		assertError(subscribeRaw("alice", receiver.url("/x"), "{\"queue\":7}", SECRET), -32602, "inputSchema");
		JsonNode unsupported = error(
				this.client
					.stateless("events/subscribe",
							"\"name\":\"catalog.product.changed\",\"delivery\":{\"mode\":\"webhook\",\"url\":\""
									+ receiver.url("/x") + "\",\"secret\":\"" + SECRET + "\"}",
							"X-Test-User", "alice"));
		assertThat(unsupported.get("code").intValue()).isEqualTo(-32026);
		assertThat(unsupported.get("data").toString())
			.isEqualTo("{\"feature\":\"deliveryMode\",\"value\":\"webhook\"}");
		JsonNode unknown = error(
				this.client.stateless("events/subscribe", "\"name\":\"no.such\",\"delivery\":{\"url\":\""
						+ receiver.url("/x") + "\",\"secret\":\"" + SECRET + "\"}", "X-Test-User", "alice"));
		assertThat(unknown.get("code").intValue()).isEqualTo(-32023);
		// A redirect is not followed, for verification as for deliveries.
		JsonNode redirected = assertError(subscribeRaw("alice", receiver.url("/redirect/hook"), "{}", SECRET), -32027,
				"CallbackEndpointError");
		assertThat(redirected.get("data").toString()).isEqualTo("{\"reason\":\"challenge_failed\"}");
		assertThat(receiver.at("/redirected/redirect/hook")).isEmpty();
		// A wrong echo fails, and what the endpoint said is never repeated.
		JsonNode wrongEcho = assertError(subscribeRaw("alice", receiver.url("/wrong-echo/hook"), "{}", SECRET), -32027,
				"CallbackEndpointError");
		assertThat(wrongEcho.toString()).doesNotContain("not-the-nonce");
		try (ServerSocket closed = new ServerSocket(0)) {
			int port = closed.getLocalPort();
			closed.close();
			JsonNode refused = assertError(subscribeRaw("alice", "https://localhost:" + port + "/hook", "{}", SECRET),
					-32027, "CallbackEndpointError");
			assertThat(refused.get("data").toString()).isEqualTo("{\"reason\":\"connection_refused\"}");
		}
		assertThat(this.meters.get("mcp.events.webhooks.verification.failures").functionCounter().count())
			.isGreaterThanOrEqualTo(3);
	}

	@Test
	void aRefreshWithANewSecretSignsWithBothDuringTheGracePeriod() throws Exception {
		String path = "/hooks/rotation";
		subscribe("alice", path, "{\"queue\":\"rotation\"}", SECRET, "");
		subscribe("alice", path, "{\"queue\":\"rotation\"}", OTHER_SECRET, "");
		publish("rotation");
		await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() == 1);
		Received delivery = receiver.deliveriesAt(path).get(0);
		assertThat(delivery.header("webhook-signature").split(" ")).hasSize(2);
		assertSigned(delivery, OTHER_SECRET);
		assertSigned(delivery, SECRET);
	}

	@Test
	void aSubscriptionItsPrincipalMayNoLongerHoldIsTerminatedWithASignedEnvelope() throws Exception {
		String path = "/hooks/revoked";
		String id = subscribe("alice", path, "{\"queue\":\"revoked\"}", SECRET, "").get("id").stringValue();
		int first = publish("revoked");
		await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() == 1);
		revokedQueue = "revoked";
		try {
			publish("revoked");
			await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() == 2);
			Received terminated = receiver.deliveriesAt(path).get(1);
			assertSigned(terminated, SECRET);
			assertThat(terminated.header("webhook-id")).matches("msg_terminated_[0-9a-f]+");
			assertThat(terminated.header("X-MCP-Subscription-Id")).isEqualTo(id);
			JsonNode body = terminated.json();
			assertThat(body.get("type").stringValue()).isEqualTo("terminated");
			assertThat(body.get("error").get("code").intValue()).isEqualTo(-32024);
			assertThat(body.get("error").get("message").stringValue()).isEqualTo("Forbidden");
			assertThat(receiver.deliveriesAt(path).get(0).json().get("data").get("number").intValue()).isEqualTo(first);
			// It no longer exists, and while the cause holds a subscribe is Forbidden.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> error(
						this.client.stateless("events/unsubscribe",
								TICKETS + ",\"arguments\":{\"queue\":\"revoked\"},\"delivery\":{\"url\":\""
										+ receiver.url(path) + "\"}",
								"X-Test-User", "alice"))
					.get("code")
					.intValue() == -32023);
			assertError(subscribeRaw("alice", receiver.url(path), "{\"queue\":\"revoked\"}", SECRET), -32024,
					"Forbidden");
		}
		finally {
			revokedQueue = null;
		}
	}

	@Test
	void aPrincipalsSubscriptionsAreBoundedByTheQuota() throws Exception {
		String path = "/hooks/quota";
		for (int i = 0; i < 20; i++) {
			subscribe("greedy", path, "{\"queue\":\"q" + i + "\"}", SECRET, "");
		}
		// A refresh is not a new subscription.
		subscribe("greedy", path, "{\"queue\":\"q0\"}", SECRET, "");
		JsonNode refused = assertError(subscribeRaw("greedy", receiver.url(path), "{\"queue\":\"q20\"}", SECRET),
				-32025, "ResourceExhausted");
		assertThat(refused.get("data").toString()).isEqualTo("{\"limit\":\"subscriptions\",\"max\":20}");
		// Verified once for the principal and URL, whatever the arguments.
		assertThat(receiver.at(path).stream().filter(Received::isVerification)).hasSize(1);
	}

	/** Wait until the marker subscription, which receives every ticket, got this one. */
	private void awaitMarkerPast(int number) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> receiver.deliveriesAt(MARKER)
				.stream()
				.anyMatch((delivery) -> delivery.json().get("data").get("number").intValue() >= number));
	}

	private int publish(String queue) {
		int number;
		synchronized (WebhooksTests.class) {
			number = ++ticket;
		}
		this.publisher.publishEvent(new TicketOpened(number, queue));
		return number;
	}

	private JsonNode subscribe(String user, String path, String arguments, String secret, String extra)
			throws Exception {
		return result(subscribeRaw(user, receiver.url(path), arguments, secret, extra));
	}

	private HttpResponse<String> subscribeRaw(String user, String url, String arguments, String secret)
			throws Exception {
		return subscribeRaw(user, url, arguments, secret, "");
	}

	private HttpResponse<String> subscribeRaw(String user, String url, String arguments, String secret, String extra)
			throws Exception {
		String params = TICKETS + ",\"arguments\":" + arguments + ",\"delivery\":{\"mode\":\"webhook\",\"url\":\"" + url
				+ "\",\"secret\":\"" + secret + "\"},\"cursor\":null" + extra;
		return (user != null) ? this.client.stateless("events/subscribe", params, "X-Test-User", user)
				: this.client.stateless("events/subscribe", params);
	}

	private void unsubscribe(String user, String path, String arguments) throws Exception {
		result(this.client.stateless("events/unsubscribe",
				TICKETS + ",\"arguments\":" + arguments + ",\"delivery\":{\"url\":\"" + receiver.url(path) + "\"}",
				"X-Test-User", user));
	}

	/**
	 * Verify a request's signature here, from the secret, over the raw bytes received.
	 */
	private static void assertSigned(Received request, String secret) {
		try {
			byte[] key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(key, "HmacSHA256"));
			String timestamp = request.header("webhook-timestamp");
			mac.update((request.header("webhook-id") + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
			String expected = "v1," + Base64.getEncoder().encodeToString(mac.doFinal(request.body()));
			assertThat(request.header("webhook-signature").split(" ")).contains(expected);
			assertThat(Long.parseLong(timestamp)).isCloseTo(Instant.now().getEpochSecond(), Offset.offset(60L));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static JsonNode assertError(HttpResponse<String> response, int code, String text) {
		JsonNode error = error(response);
		assertThat(error.get("code").intValue()).as(response.body()).isEqualTo(code);
		assertThat(error.toString()).contains(text);
		return error;
	}

	private static byte[] bytes(int length, int seed) {
		byte[] bytes = new byte[length];
		for (int i = 0; i < length; i++) {
			bytes[i] = (byte) (seed + i);
		}
		return bytes;
	}

	private static JsonNode result(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode body = json(response.body());
		assertThat(body.has("error")).as(response.body()).isFalse();
		return body.get("result");
	}

	private static JsonNode error(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode body = json(response.body());
		assertThat(body.has("result")).as(response.body()).isFalse();
		return body.get("error");
	}

	@Configuration(proxyBeanMethods = false)
	@Import(TestUsers.class)
	static class Config {

		@Bean
		MutableClock eventsClock() {
			return new MutableClock(Instant.parse("2026-10-05T12:00:00Z"));
		}

		@Bean
		EventLog eventLog(MutableClock clock) {
			return new InMemoryEventLog(1000, Duration.ofDays(1), clock);
		}

		@Bean
		McpEventAccessPolicy eventAccessPolicy() {
			return new McpEventAccessPolicy() {
				@Override
				public boolean canSubscribe(Principal principal, String eventType, Object arguments) {
					return !(arguments instanceof TicketFilter filter && filter.queue() != null
							&& filter.queue().equals(revokedQueue));
				}
			};
		}

	}

}
