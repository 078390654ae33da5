package io.github.mcpsubscriptions.events;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A webhook is posted as soon as its event is recorded on the node: the log is scanned
 * here once an hour, so only the log's append signal can bring the events in time, in
 * order.
 */
@SpringBootTest(classes = { EventsTestApplication.class, WebhookAppendTests.Config.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.events.enabled=true", "mcp.events.webhooks.allowed-networks=127.0.0.0/8",
				"mcp.events.webhooks.ssl-bundle=receiver", "mcp.events.webhooks.scan-interval=1h" })
class WebhookAppendTests {

	private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(new byte[32]);

	private static final HttpsReceiver receiver = startReceiver();

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher publisher;

	@DynamicPropertySource
	static void receiverTrust(DynamicPropertyRegistry registry) {
		registry.add("spring.ssl.bundle.pem.receiver.truststore.certificate",
				() -> "file:" + receiver.certificate().toAbsolutePath());
	}

	private static HttpsReceiver startReceiver() {
		try {
			Path directory = Files.createTempDirectory("webhook-receiver");
			directory.toFile().deleteOnExit();
			return HttpsReceiver.start(directory, 1000);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@AfterAll
	static void stopReceiver() {
		receiver.close();
	}

	@Test
	void eventsRecordedOnTheNodeArePostedAtOnceInOrder() throws Exception {
		String path = "/hooks/append";
		HttpResponse<String> subscribed = new McpTestClient(this.port).stateless("events/subscribe",
				"\"name\":\"test.ticket.opened\",\"arguments\":{\"queue\":\"append\"},\"delivery\":{\"mode\":\"webhook\","
						+ "\"url\":\"" + receiver.url(path) + "\",\"secret\":\"" + SECRET + "\"},\"cursor\":null",
				"X-Test-User", "alice");
		assertThat(json(subscribed.body()).has("result")).as(subscribed.body()).isTrue();
		for (int number = 1; number <= 3; number++) {
			this.publisher.publishEvent(new TicketOpened(number, "append"));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> receiver.deliveriesAt(path).size() >= 3);
		assertThat(receiver.deliveriesAt(path)).extracting((received) -> {
			JsonNode body = received.json();
			return body.get("data").get("number").intValue();
		}).containsExactly(1, 2, 3);
	}

	@Configuration(proxyBeanMethods = false)
	@Import(TestUsers.class)
	static class Config {

	}

}
