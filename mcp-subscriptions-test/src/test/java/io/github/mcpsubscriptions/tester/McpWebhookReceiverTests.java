package io.github.mcpsubscriptions.tester;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.Principal;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.github.mcpsubscriptions.tester.McpWebhookReceiver.Delivery;
import io.github.mcpsubscriptions.tester.notes.NoteAdded;
import io.github.mcpsubscriptions.tester.notes.NotesApplication;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.filter.OncePerRequestFilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The webhook receiver against a real application: {@code events/subscribe} (raw JSON,
 * with a principal, as the draft wants) verifies it, the application's events arrive
 * signed and in order; requests it cannot verify are refused, a repeated delivery is
 * taken once.
 */
@SpringBootTest(classes = { NotesApplication.class, McpWebhookReceiverTests.Principals.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.events.enabled=true", "mcp.events.webhooks.scan-interval=20ms" })
@AutoConfigureMcpTester
class McpWebhookReceiverTests {

	private static final McpWebhookReceiver receiver = McpWebhookReceiver.start();

	@Autowired
	private McpTester mcp;

	@Autowired
	private ApplicationEventPublisher events;

	@DynamicPropertySource
	static void trustReceiver(DynamicPropertyRegistry registry) {
		receiver.serverProperties().forEach((name, value) -> registry.add(name, () -> value));
	}

	@AfterAll
	static void stopReceiver() {
		receiver.close();
	}

	@Test
	void aSubscriptionIsVerifiedAndItsEventsArriveSignedInOrder() throws Exception {
		int verifications = receiver.verifications();
		JsonNode subscribed = subscribe(receiver.url("/in-order"), receiver.newSecret());
		String id = subscribed.get("id").stringValue();
		assertThat(receiver.verifications()).isEqualTo(verifications + 1);

		this.events.publishEvent(new NoteAdded(10, "eggs"));
		this.events.publishEvent(new NoteAdded(11, "jam"));

		List<Delivery> deliveries = receiver.awaitDeliveries(2);
		assertThat(deliveries).extracting((delivery) -> delivery.data().get("text").stringValue())
			.containsExactly("eggs", "jam");
		for (Delivery delivery : deliveries) {
			assertThat(delivery.isEvent()).isTrue();
			assertThat(delivery.path()).isEqualTo("/in-order");
			assertThat(delivery.subscriptionId()).isEqualTo(id);
			assertThat(delivery.name()).isEqualTo("notes.note.added");
			assertThat(delivery.webhookId()).isEqualTo(delivery.eventId());
			assertThat(delivery.cursor()).isNotNull();
		}
		assertThat(receiver.rejected()).isEmpty();
	}

	@Test
	void aRequestSignedWithAnUnknownSecretOrStaleIsRefusedAndARepeatIsTakenOnce() throws Exception {
		String secret = receiver.newSecret();
		String body = "{\"eventId\":\"evt_1\",\"name\":\"notes.note.added\",\"timestamp\":\"2026-10-05T12:00:00Z\","
				+ "\"data\":{\"id\":1,\"text\":\"milk\"},\"cursor\":\"c1\"}";
		long now = Instant.now().getEpochSecond();
		String unknown = "whsec_" + Base64.getEncoder().encodeToString(new byte[32]);
		assertThat(post("evt_1", now, body, unknown)).isEqualTo(401);
		assertThat(post("evt_1", now - 3600, body, secret)).isEqualTo(401);
		assertThat(receiver.rejected()).hasSize(2);
		assertThat(receiver.rejected().get(0)).contains("verifies with none of the receiver's secrets");
		assertThat(receiver.rejected().get(1)).contains("more than PT5M from now");

		int duplicates = receiver.duplicates();
		assertThat(post("evt_1", now, body, secret)).isEqualTo(204);
		assertThat(post("evt_1", now + 1, body, secret)).isEqualTo(204);
		Delivery taken = receiver.awaitDelivery();
		assertThat(taken.subscriptionId()).isEqualTo("sub_manual");
		assertThat(taken.data().get("text").stringValue()).isEqualTo("milk");
		assertThat(receiver.duplicates()).isEqualTo(duplicates + 1);
		assertThat(receiver.deliveries()).filteredOn((delivery) -> delivery.subscriptionId().equals("sub_manual"))
			.hasSize(1);
	}

	@Test
	void awaitingMoreThanArrivesFailsAfterTheTimeoutSayingWhatCame() {
		McpWebhookReceiver quiet = McpWebhookReceiver.start().withTimeout(Duration.ofMillis(200));
		try (quiet) {
			assertThatExceptionOfType(AssertionError.class).isThrownBy(quiet::awaitDelivery)
				.withMessageContaining("Expected 1 more webhook deliveries within PT0.2S, got 0");
		}
	}

	private JsonNode subscribe(String url, String secret) throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"events/subscribe\",\"params\":{"
				+ "\"name\":\"notes.note.added\",\"arguments\":{},\"delivery\":{\"mode\":\"webhook\",\"url\":\"" + url
				+ "\",\"secret\":\"" + secret + "\"},\"cursor\":null,\"_meta\":{"
				+ "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
				+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"test\",\"version\":\"1\"},"
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(this.mcp.endpoint())
				.header("Content-Type", "application/json")
				.header("Accept", "application/json, text/event-stream")
				.header("MCP-Protocol-Version", "2026-07-28")
				.header("Mcp-Method", "events/subscribe")
				.header("X-Test-User", "alice")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
		JsonNode answer = McpTester.json.readTree(response.body());
		assertThat(answer.has("result")).as(response.body()).isTrue();
		return answer.get("result");
	}

	/** Posts to the receiver as a server would, signed with a secret. */
	private static int post(String webhookId, long timestamp, String body, String secret) throws Exception {
		Mac mac = Mac.getInstance("HmacSHA256");
		mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
		String signature = "v1," + Base64.getEncoder()
			.encodeToString(mac.doFinal((webhookId + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
		HttpClient http = HttpClient.newBuilder().sslContext(trustingReceiver()).build();
		return http
			.send(HttpRequest.newBuilder(URI.create(receiver.url()))
				.header("Content-Type", "application/json")
				.header("webhook-id", webhookId)
				.header("webhook-timestamp", Long.toString(timestamp))
				.header("webhook-signature", signature)
				.header("X-MCP-Subscription-Id", "sub_manual")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.discarding())
			.statusCode();
	}

	private static SSLContext trustingReceiver() throws Exception {
		KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
		trust.load(null, null);
		try (InputStream in = Files.newInputStream(receiver.certificate())) {
			trust.setCertificateEntry("receiver", CertificateFactory.getInstance("X.509").generateCertificate(in));
		}
		TrustManagerFactory managers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		managers.init(trust);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, managers.getTrustManagers(), null);
		return context;
	}

	/** Stands in for authentication: {@code X-Test-User} names the principal. */
	@Configuration(proxyBeanMethods = false)
	static class Principals {

		@Bean
		OncePerRequestFilter testUserFilter() {
			return new OncePerRequestFilter() {

				@Override
				protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
						FilterChain chain) throws ServletException, IOException {
					String user = request.getHeader("X-Test-User");
					if (user == null) {
						chain.doFilter(request, response);
						return;
					}
					chain.doFilter(new HttpServletRequestWrapper(request) {

						@Override
						public Principal getUserPrincipal() {
							return () -> user;
						}

					}, response);
				}

			};
		}

	}

}
