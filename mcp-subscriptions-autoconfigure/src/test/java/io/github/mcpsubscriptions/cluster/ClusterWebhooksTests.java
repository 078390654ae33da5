package io.github.mcpsubscriptions.cluster;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.events.EventsTestApplication;
import io.github.mcpsubscriptions.events.HttpsReceiver;
import io.github.mcpsubscriptions.events.HttpsReceiver.Received;
import io.github.mcpsubscriptions.events.McpWebhookStore;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.mcpsubscriptions.cluster.ClusterNodes.client;
import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Webhooks across the nodes of a cluster on the real Redis, to a real HTTPS receiver on
 * loopback: subscriptions live in Redis, so any node refreshes or removes one and they
 * outlive every node; each is delivered by the one node holding its lease, exactly once
 * per event and in order though every node reads every event; a node that stops, or is
 * killed, is taken over from the recorded cursor; and while Redis is down
 * {@code events/subscribe} answers 503 with {@code Retry-After}.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ClusterWebhooksTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(new byte[32]);

	private static final String TICKETS = "\"name\":\"test.ticket.opened\"";

	private final ClusterNodes nodes = new ClusterNodes(5);

	private final List<ClusterNodeProcess> processes = new ArrayList<>();

	private HttpsReceiver receiver;

	private RedisServerProcess server;

	private int ticket;

	/** The ids of the subscriptions made, by principal and path. */
	private final Map<String, String> ids = new ConcurrentHashMap<>();

	@BeforeEach
	void startReceiver() throws Exception {
		Path directory = Files.createTempDirectory("webhook-receiver");
		directory.toFile().deleteOnExit();
		this.receiver = HttpsReceiver.start(directory, 6000);
	}

	@AfterEach
	void close() throws Exception {
		this.processes.forEach(ClusterNodeProcess::close);
		this.nodes.close();
		this.receiver.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void eachEventIsPostedOnceBySubscriptionInOrderThoughEveryNodeReadsIt() throws Exception {
		// Leases and retries that a loaded machine cannot break: no takeover, nothing
		// abandoned.
		String[] steady = { "mcp.events.webhooks.lease-duration=30s", "mcp.events.webhooks.lease-renew-interval=1s",
				"mcp.events.webhooks.timeout=10s", "mcp.events.webhooks.max-attempts=50" };
		ConfigurableApplicationContext a = start("a", steady);
		ConfigurableApplicationContext b = start("b", steady);
		assertThat(a.getBean(McpWebhookStore.class)).isInstanceOf(RedisWebhookStore.class);
		String path = "/hooks/once";
		subscribe(a, "alice", path, "{\"queue\":\"billing\"}");
		subscribe(b, "bob", path, "{}");
		List<Integer> billing = new ArrayList<>();
		List<Integer> all = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			String queue = (i % 3 == 0) ? "sales" : "billing";
			int number = publish((i % 2 == 0) ? a : b, queue);
			all.add(number);
			if (queue.equals("billing")) {
				billing.add(number);
			}
		}
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(distinct(path, "alice")).as(seen(path, a, b)).containsExactlyElementsOf(billing);
			assertThat(distinct(path, "bob")).as(seen(path, a, b)).containsExactlyElementsOf(all);
		});
		String seen = seen(path, a, b);
		// Every POST beyond one per event is a retry of a failed attempt (a loaded
		// machine's timeout), never a second node's.
		double retries = counter(a, "mcp.events.webhooks.retries") + counter(b, "mcp.events.webhooks.retries");
		assertThat(deliveries(path).size() - (billing.size() + all.size())).as(seen).isLessThanOrEqualTo((int) retries);
		assertThat(attempts(a) + attempts(b)).as(seen).isEqualTo(billing.size() + all.size() + retries);
	}

	@Test
	void aSubscriptionMadeOnOneNodeIsRefreshedAndRemovedThroughAnother() throws Exception {
		ConfigurableApplicationContext a = start("a");
		ConfigurableApplicationContext b = start("b");
		String path = "/hooks/across";
		JsonNode made = subscribe(a, "alice", path, "{\"queue\":\"billing\"}");
		String id = made.get("id").stringValue();
		int first = publish(b, "billing");
		await().atMost(WAIT).until(() -> numbers(path, "alice").contains(first));

		JsonNode refreshed = subscribe(b, "alice", path, "{\"queue\":\"billing\"}");
		assertThat(refreshed.get("id").stringValue()).isEqualTo(id);
		assertThat(refreshed.get("deliveryStatus").get("active").booleanValue()).isTrue();
		assertThat(refreshed.get("deliveryStatus").has("lastDeliveryAt")).isTrue();
		assertThat(this.receiver.at(path).stream().filter(Received::isVerification)).as("verified once for the cluster")
			.hasSize(1);

		// A marker shows how far the log was read.
		subscribe(a, "marker", "/hooks/marker", "{}");
		result(client(b).stateless("events/unsubscribe", TICKETS + ",\"arguments\":{\"queue\":\"billing\"},"
				+ "\"delivery\":{\"url\":\"" + this.receiver.url(path) + "\"}", "X-Test-User", "alice"));
		int after = publish(a, "billing");
		await().atMost(WAIT)
			.until(() -> deliveries("/hooks/marker").stream()
				.anyMatch((delivery) -> delivery.json().get("data").get("number").intValue() == after));
		assertThat(distinct(path, "alice")).containsExactly(first);
		HttpResponse<String> again = client(a).stateless("events/unsubscribe", TICKETS
				+ ",\"arguments\":{\"queue\":\"billing\"},\"delivery\":{\"url\":\"" + this.receiver.url(path) + "\"}",
				"X-Test-User", "alice");
		assertThat(json(again.body()).get("error").get("code").intValue()).as(again.body()).isEqualTo(-32023);
	}

	@Test
	void aSubscriptionSuspendedOnOneNodeIsResumedByARefreshThroughAnother() throws Exception {
		ConfigurableApplicationContext a = start("a", "mcp.events.webhooks.suspend-after=2");
		ConfigurableApplicationContext b = start("b", "mcp.events.webhooks.suspend-after=2");
		// Answers 410 to every delivery: each is abandoned at once.
		String path = "/gone/across";
		subscribe(a, "alice", path, "{}");
		publish(b, "billing");
		publish(b, "billing");
		await().atMost(WAIT)
			.until(() -> counter(a, "mcp.events.webhooks.suspended")
					+ counter(b, "mcp.events.webhooks.suspended") == 1);
		JsonNode status = subscribe(b, "alice", path, "{}").get("deliveryStatus");
		assertThat(status.get("active").booleanValue()).as("suspended before this refresh").isFalse();
		assertThat(status.get("lastError").stringValue()).isEqualTo("http_4xx");
		// Resumed on the node that delivers it, its count of abandoned deliveries afresh:
		// one more abandoned does not suspend it again, so the next is posted too.
		int third = publish(b, "billing");
		await().atMost(WAIT).until(() -> numbers(path, "alice").contains(third));
		int fourth = publish(b, "billing");
		await().atMost(WAIT).until(() -> numbers(path, "alice").contains(fourth));
		assertThat(Math.min(attempts(a), attempts(b))).as("delivered by one node only").isZero();
	}

	@Test
	void subscriptionsAndVerificationsOutliveEveryNode() throws Exception {
		ConfigurableApplicationContext a = start("a");
		ConfigurableApplicationContext b = start("b");
		String path = "/hooks/restart";
		subscribe(a, "alice", path, "{}");
		int first = publish(b, "billing");
		await().atMost(WAIT).until(() -> numbers(path, "alice").contains(first));
		// The delivering node stops (its leases released): the other goes on at once.
		String lease = new ClusterKeys(this.nodes.redis().prefix()).webhookLease(subscriptionId(path, "alice"));
		assertThat(this.nodes.redis().redis().opsForValue().get(lease)).startsWith("a:");
		a.close();
		String holder = this.nodes.redis().redis().opsForValue().get(lease);
		assertThat(holder == null || holder.startsWith("b:")).as("released, not left to lapse: " + holder).isTrue();
		int second = publish(b, "billing");
		await().atMost(WAIT).until(() -> numbers(path, "alice").contains(second));
		b.close();

		// Every node gone: a new one finds the subscription and its cursor in Redis.
		ConfigurableApplicationContext c = start("c");
		int third = publish(c, "sales");
		await().atMost(WAIT).until(() -> numbers(path, "alice").contains(third));
		assertThat(distinct(path, "alice")).containsExactly(first, second, third);
		JsonNode refreshed = subscribe(c, "alice", path, "{}");
		assertThat(refreshed.has("deliveryStatus")).as("a refresh, not a new subscription").isTrue();
		assertThat(this.receiver.at(path).stream().filter(Received::isVerification)).hasSize(1);
	}

	@Test
	void aKilledDeliveringNodeIsTakenOverFromTheRecordedCursor() throws Exception {
		String path = "/hooks/killed";
		ClusterNodeProcess killed = ClusterNodeProcess.startWith(EventsTestApplication.class, "256m",
				this.nodes.redis().nodeArguments(properties("k")));
		this.processes.add(killed);
		// Subscribed before the other node exists: the killed one holds the lease.
		result(subscribeRaw(killed.client(), "alice", path, "{}"));
		ConfigurableApplicationContext survivor = start("s");
		List<Integer> published = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			published.add(publish(survivor, "billing"));
		}
		await().atMost(WAIT).until(() -> numbers(path, "alice").size() >= 5);
		assertThat(attempts(survivor)).as("delivered by the node that holds the lease").isZero();
		killed.kill();
		for (int i = 0; i < 5; i++) {
			published.add(publish(survivor, "billing"));
		}
		await().atMost(WAIT).until(() -> new LinkedHashSet<>(eventIds(path)).size() >= published.size());
		assertThat(attempts(survivor)).as("taken over by the survivor").isPositive();
		// At least once: a redelivery may repeat what the killed node posted after it
		// last recorded its cursor, never more; deduplicated by webhook-id, the exact
		// sequence.
		List<String> ids = eventIds(path);
		Set<String> distinct = new LinkedHashSet<>(ids);
		assertThat(numbers(path, "alice").stream().distinct().toList()).containsExactlyElementsOf(published);
		assertThat(ids.size() - distinct.size()).isLessThanOrEqualTo(1);
	}

	@Test
	void aDeliveringNodePausedPastItsLeaseIsTakenOverAndDeliversNothingMoreWhenItResumes() throws Exception {
		String path = "/hooks/paused";
		ClusterNodeProcess paused = ClusterNodeProcess.startWith(EventsTestApplication.class, "256m",
				this.nodes.redis().nodeArguments(properties("p")));
		this.processes.add(paused);
		result(subscribeRaw(paused.client(), "alice", path, "{}"));
		ConfigurableApplicationContext survivor = start("s");
		List<Integer> published = new ArrayList<>();
		published.add(publish(survivor, "billing"));
		await().atMost(WAIT).until(() -> numbers(path, "alice").size() == 1);
		double postedBefore = paused.counter("mcp.events.webhooks.attempts");
		assertThat(postedBefore).isEqualTo(1);

		// Stopped as a long GC pause would: its lease lapses and the survivor goes on.
		paused.pause();
		try {
			published.add(publish(survivor, "billing"));
			await().atMost(WAIT).until(() -> numbers(path, "alice").size() == 2);
		}
		finally {
			paused.resume();
		}
		for (int i = 0; i < 3; i++) {
			published.add(publish(survivor, "billing"));
		}
		await().atMost(WAIT).until(() -> new LinkedHashSet<>(eventIds(path)).size() >= published.size());
		// At least once, as webhooks are: a POST whose answer the survivor did not get in
		// time is retried with the same webhook-id. Deduplicated by webhook-id, each
		// event
		// once and in order, and never one event under two webhook-ids.
		List<String> ids = eventIds(path);
		Set<String> distinct = new LinkedHashSet<>(ids);
		assertThat(distinct).as("one webhook-id per event").hasSameSizeAs(published);
		assertThat(numbers(path, "alice").stream().distinct().toList()).as("each once, in order")
			.containsExactlyElementsOf(published);
		assertThat(ids.size() - distinct.size()).isLessThanOrEqualTo(1);
		// Back, it finds the lease taken and posts nothing more.
		await().atMost(WAIT).ignoreExceptions().until(() -> paused.get("/actuator/health").statusCode() == 200);
		assertThat(paused.counter("mcp.events.webhooks.attempts")).isEqualTo(postedBefore);
	}

	@Test
	void whileRedisIsDownSubscribeAnswers503AndTheNodeRecovers() throws Exception {
		this.server = new RedisServerProcess();
		ConfigurableApplicationContext node = this.nodes.run(new Class<?>[] { EventsTestApplication.class },
				this.nodes.redis().nodeArguments("127.0.0.1", this.server.port(), withPollTimeout(properties("a"))));
		ClusterHealthIndicator health = node.getBean(ClusterHealthIndicator.class);
		String path = "/hooks/down";
		subscribe(node, "alice", path, "{}");

		this.server.kill();
		await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.DOWN));
		HttpResponse<String> down = subscribeRaw(client(node), "bob", path, "{}");
		assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
		assertThat(down.headers().firstValue("Retry-After")).isPresent();
		assertThat(json(down.body()).get("error").get("code").intValue()).isEqualTo(-32000);

		this.server.start();
		await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.UP));
		await().atMost(WAIT).until(() -> subscribeRaw(client(node), "bob", path, "{}").statusCode() == 200);
		int number = publish(node, "billing");
		await().atMost(WAIT)
			.until(() -> numbers(path, "alice").contains(number) && numbers(path, "bob").contains(number));
	}

	private ConfigurableApplicationContext start(String name, String... extra) {
		List<String> properties = new ArrayList<>(List.of(properties(name)));
		for (String property : extra) {
			// Replaced, not repeated (a repeated argument is read as a list).
			String key = property.substring(0, property.indexOf('=') + 1);
			properties.removeIf((candidate) -> candidate.startsWith(key));
			properties.add(property);
		}
		return this.nodes.run(new Class<?>[] { EventsTestApplication.class },
				this.nodes.redis().nodeArguments(properties.toArray(String[]::new)));
	}

	private String[] properties(String name) {
		return new String[] { "mcp.cluster.node-name=" + name, "mcp.events.enabled=true",
				"mcp.events.webhooks.allowed-networks=127.0.0.0/8", "mcp.events.webhooks.ssl-bundle=receiver",
				"spring.ssl.bundle.pem.receiver.truststore.certificate=file:"
						+ this.receiver.certificate().toAbsolutePath(),
				"mcp.events.webhooks.scan-interval=20ms", "mcp.events.webhooks.lease-duration=2s",
				"mcp.events.webhooks.lease-renew-interval=300ms", "mcp.events.webhooks.initial-backoff=50ms",
				"mcp.events.webhooks.max-backoff=200ms", "mcp.events.webhooks.timeout=3s" };
	}

	private static String[] withPollTimeout(String[] properties) {
		List<String> all = new ArrayList<>(List.of(properties));
		all.add("mcp.cluster.poll-timeout=200ms");
		return all.toArray(String[]::new);
	}

	private int publish(ConfigurableApplicationContext node, String queue) {
		int number = ++this.ticket;
		node.publishEvent(ClusterWebhooksTests.ticket(number, queue));
		return number;
	}

	/** A ticket of the events package's test type, built as its payload is read back. */
	private static Object ticket(int number, String queue) {
		try {
			var type = Class.forName("io.github.mcpsubscriptions.events.TicketOpened");
			var constructor = type.getDeclaredConstructor(int.class, String.class);
			constructor.setAccessible(true);
			return constructor.newInstance(number, queue);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private JsonNode subscribe(ConfigurableApplicationContext node, String user, String path, String arguments)
			throws Exception {
		return result(subscribeRaw(client(node), user, path, arguments));
	}

	private HttpResponse<String> subscribeRaw(McpTestClient client, String user, String path, String arguments)
			throws Exception {
		HttpResponse<String> response = client.stateless("events/subscribe",
				TICKETS + ",\"arguments\":" + arguments + ",\"delivery\":{\"mode\":\"webhook\",\"url\":\""
						+ this.receiver.url(path) + "\",\"secret\":\"" + SECRET + "\"},\"cursor\":null",
				"X-Test-User", user);
		JsonNode result = (response.statusCode() == 200) ? json(response.body()).get("result") : null;
		if (result != null && result.has("id")) {
			this.ids.put(user + " " + path, result.get("id").stringValue());
		}
		return response;
	}

	private List<Received> deliveries(String path) {
		return this.receiver.deliveriesAt(path);
	}

	/** The tickets one principal's subscription received, in order, as posted. */
	private List<Integer> numbers(String path, String user) {
		String id = subscriptionId(path, user);
		return deliveries(path).stream()
			.filter((delivery) -> delivery.header("X-MCP-Subscription-Id").equals(id))
			.map((delivery) -> delivery.json().get("data").get("number").intValue())
			.toList();
	}

	/** What a path received, for a failure's message. */
	private String seen(String path, ConfigurableApplicationContext a, ConfigurableApplicationContext b) {
		return deliveries(path).stream()
			.map((delivery) -> delivery.header("X-MCP-Subscription-Id") + "/" + delivery.header("webhook-id") + "/"
					+ delivery.json().get("data").get("number"))
			.toList() + " attempts a=" + attempts(a) + " b=" + attempts(b) + " retries a="
				+ counter(a, "mcp.events.webhooks.retries") + " b=" + counter(b, "mcp.events.webhooks.retries");
	}

	/** The tickets one principal's subscription received, deduplicated by webhook-id. */
	private List<Integer> distinct(String path, String user) {
		String id = subscriptionId(path, user);
		Set<String> seen = new LinkedHashSet<>();
		return deliveries(path).stream()
			.filter((delivery) -> delivery.header("X-MCP-Subscription-Id").equals(id))
			.filter((delivery) -> seen.add(delivery.header("webhook-id")))
			.map((delivery) -> delivery.json().get("data").get("number").intValue())
			.toList();
	}

	private List<String> eventIds(String path) {
		return deliveries(path).stream().map((delivery) -> delivery.header("webhook-id")).toList();
	}

	private String subscriptionId(String path, String user) {
		return this.ids.getOrDefault(user + " " + path, "");
	}

	private static double attempts(ConfigurableApplicationContext node) {
		return counter(node, "mcp.events.webhooks.attempts");
	}

	private static double counter(ConfigurableApplicationContext node, String name) {
		FunctionCounter counter = node.getBean(MeterRegistry.class).find(name).functionCounter();
		return (counter != null) ? counter.count() : 0;
	}

	private static JsonNode result(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode body = json(response.body());
		assertThat(body.has("result")).as(response.body()).isTrue();
		return body.get("result");
	}

}
