package io.github.mcpsubscriptions.events;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.github.mcpsubscriptions.cluster.ClusterKeys;
import io.github.mcpsubscriptions.cluster.RedisTestSupport;
import io.github.mcpsubscriptions.events.HttpsReceiver.Received;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.TestUsers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node of a cluster that loses a subscription's lease stops delivering it; the node
 * that takes it over later resumes from the recorded cursor, and, when the shared log no
 * longer retains what followed it, says so with a {@code gap} envelope before what is
 * retained.
 */
class WebhooksClusterGapTests {

	private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(new byte[32]);

	private final RedisTestSupport redis = new RedisTestSupport(5);

	private final List<ConfigurableApplicationContext> nodes = new ArrayList<>();

	private HttpsReceiver receiver;

	@AfterEach
	void close() {
		this.nodes.forEach(ConfigurableApplicationContext::close);
		this.redis.close();
		if (this.receiver != null) {
			this.receiver.close();
		}
	}

	@Test
	void aLostLeaseStopsDeliveryAndATakeoverBehindTheLogStartsWithAGap() throws Exception {
		Path directory = Files.createTempDirectory("webhook-receiver");
		directory.toFile().deleteOnExit();
		this.receiver = HttpsReceiver.start(directory, 6000);
		ConfigurableApplicationContext node = start("a");
		String path = "/hooks/gap";
		McpTestClient client = new McpTestClient(((WebServerApplicationContext) node).getWebServer().getPort());
		HttpResponse<String> response = client.stateless("events/subscribe",
				"\"name\":\"test.ticket.opened\",\"arguments\":{},\"delivery\":{\"mode\":\"webhook\",\"url\":\""
						+ this.receiver.url(path) + "\",\"secret\":\"" + SECRET + "\"}",
				"X-Test-User", "alice");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		String id = json(response.body()).get("result").get("id").stringValue();
		node.publishEvent(new TicketOpened(1, "billing"));
		await().atMost(Duration.ofSeconds(30)).until(() -> received(path).contains("1"));

		// Another holder takes the lease (as a node that took over would): this node
		// stops.
		String lease = new ClusterKeys(this.redis.prefix()).webhookLease(id);
		this.redis.redis().opsForValue().set(lease, "elsewhere", Duration.ofMinutes(1));
		WebhookDelivery delivery = node.getBean(WebhookDelivery.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> delivery.getDelivering() == 0);
		for (int number = 2; number <= 6; number++) {
			node.publishEvent(new TicketOpened(number, "billing"));
		}
		// The other holder is gone: its lease lapses (here: is deleted), and this node
		// takes over from the recorded cursor, behind what the log retains (3 events).
		this.redis.redis().delete(lease);
		await().atMost(Duration.ofSeconds(30)).until(() -> received(path).size() >= 5);
		assertThat(received(path)).containsExactly("1", "gap", "4", "5", "6");
		assertThat(delivery.getDelivering()).isOne();
	}

	/** What the path received besides verification: each ticket's number, or "gap". */
	private List<String> received(String path) {
		List<String> received = new ArrayList<>();
		for (Received delivery : this.receiver.deliveriesAt(path)) {
			JsonNode body = delivery.json();
			received.add(body.has("type") ? body.get("type").stringValue()
					: Integer.toString(body.get("data").get("number").intValue()));
		}
		return received;
	}

	private ConfigurableApplicationContext start(String name) {
		ConfigurableApplicationContext node = new SpringApplication(EventsTestApplication.class, TestUsers.class)
			.run(this.redis.nodeArguments("mcp.events.enabled=true", "mcp.cluster.node-name=" + name,
					"mcp.events.retention-size=3", "mcp.events.webhooks.allowed-networks=127.0.0.0/8",
					"mcp.events.webhooks.ssl-bundle=receiver",
					"spring.ssl.bundle.pem.receiver.truststore.certificate=file:"
							+ this.receiver.certificate().toAbsolutePath(),
					"mcp.events.webhooks.scan-interval=20ms", "mcp.events.webhooks.lease-duration=2s",
					"mcp.events.webhooks.lease-renew-interval=300ms"));
		this.nodes.add(node);
		return node;
	}

}
