package io.github.mcpsubscriptions.stress;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.notification.Subscriber;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One client that never reads, among clients that do: the readers get every notification
 * without waiting for it, and the stalled client's stream is closed and its memory
 * released. Loopback only, bounded in count and time.
 */
@SpringBootTest(classes = { McpTestApplication.class, SlowConsumerStressTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "mcp.endpoint.heartbeat-interval=400ms",
				"mcp.notifications.outbox-capacity=256", "mcp.notifications.write-timeout=1s" })
class SlowConsumerStressTests {

	private static final int READERS = 4;

	private static final int EVENTS = 200;

	private static final String PAD = "x".repeat(16 * 1024);

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private NotificationEngine dispatcher;

	@Test
	void clientThatNeverReadsDoesNotHoldUpTheOthers() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		Latencies baseline = run(client, "base", null);

		String slowSession = subscribedSession(client);
		try (Socket slow = openWithoutReading(slowSession)) {
			Latencies withSlow = run(client, "slow", slow);
			System.out.printf("slow consumer stress: readers' latency p50/p99/max in ms without %s, with %s%n",
					baseline, withSlow);
			assertThat(withSlow.count()).as("readers got every notification").isEqualTo(READERS * EVENTS);
			// Generous: a reader that waited for the stalled client would wait a write
			// timeout and more.
			assertThat(withSlow.max()).isLessThan(Duration.ofSeconds(5).toMillis());
			McpSession session = this.sessions.find(slowSession, null);
			await().atMost(Duration.ofSeconds(20)).until(() -> this.sessions.getStream(slowSession) == null);
			assertThat(this.dispatcher.getStats().getOverflows() + this.dispatcher.getStats().getStalls()).isPositive();
			// What waits for its return is bounded by the outbox, whatever the flow.
			Subscriber subscriber = this.sessions.getSubscriber(session);
			assertThat(this.dispatcher.getWaiting(subscriber))
				.isLessThanOrEqualTo(this.dispatcher.getCapacity(subscriber));
		}
		assertThat(baseline.count()).isEqualTo(READERS * EVENTS);
	}

	private Latencies run(McpTestClient client, String label, Socket slow) throws Exception {
		Map<String, Long> publishedAt = new ConcurrentHashMap<>();
		List<Long> latencies = new CopyOnWriteArrayList<>();
		List<SseStream> streams = new ArrayList<>();
		CountDownLatch done = new CountDownLatch(READERS);
		List<Thread> readers = new ArrayList<>();
		for (int r = 0; r < READERS; r++) {
			SseStream stream = client.openStream(subscribedSession(client));
			streams.add(stream);
			Thread reader = new Thread(() -> {
				try {
					for (int n = 0; n < EVENTS; n++) {
						SseEvent event = stream.nextMessage(Duration.ofSeconds(15));
						if (event == null) {
							return;
						}
						String uri = json(event.data()).get("params").get("uri").stringValue();
						latencies.add((System.nanoTime() - publishedAt.get(uri)) / 1_000_000);
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					done.countDown();
				}
			});
			reader.setDaemon(true);
			reader.start();
			readers.add(reader);
		}
		// A steady flow, one change every 5 ms: readers keep up, a client that reads
		// nothing cannot.
		AtomicInteger next = new AtomicInteger();
		ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor();
		publisher.scheduleAtFixedRate(() -> {
			int n = next.getAndIncrement();
			if (n < EVENTS) {
				String uri = "big://" + label + "/" + n;
				publishedAt.put(uri, System.nanoTime());
				this.events.publishEvent(new ResourceChangedEvent(uri, Map.of("pad", PAD)));
			}
		}, 0, 5, TimeUnit.MILLISECONDS);
		try {
			assertThat(done.await(60, TimeUnit.SECONDS)).as("readers finished").isTrue();
		}
		finally {
			publisher.shutdownNow();
		}
		streams.forEach(SseStream::close);
		return new Latencies(latencies);
	}

	private String subscribedSession(McpTestClient client) throws Exception {
		String session = client.initialize("2025-06-18");
		JsonNode body = json(client.call(session, "resources/subscribe", "{\"uri\":\"big://\"}").body());
		assertThat(body.has("error")).as(body.toString()).isFalse();
		return session;
	}

	/** A GET stream whose client never reads, with the smallest receive buffer. */
	private Socket openWithoutReading(String session) throws Exception {
		Socket socket = new Socket();
		socket.setReceiveBufferSize(1024);
		socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 5000);
		OutputStream out = socket.getOutputStream();
		out.write(("GET /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nAccept: text/event-stream\r\n"
				+ "Mcp-Session-Id: " + session + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		out.flush();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getStream(session) != null);
		return socket;
	}

	record Latencies(List<Long> values) {

		int count() {
			return this.values.size();
		}

		long percentile(double p) {
			List<Long> sorted = new ArrayList<>(this.values);
			Collections.sort(sorted);
			return sorted.isEmpty() ? -1
					: sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1));
		}

		long max() {
			return this.values.stream().mapToLong(Long::longValue).max().orElse(-1);
		}

		@Override
		public String toString() {
			return percentile(0.5) + "/" + percentile(0.99) + "/" + max();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Big big() {
			return new Big();
		}

		@Bean
		WebServerFactoryCustomizer<TomcatServletWebServerFactory> smallSendBuffers() {
			// Small socket buffers make a client that does not read block the writer
			// soon.
			return (factory) -> factory
				.addConnectorCustomizers((connector) -> connector.setProperty("socket.txBufSize", "8192"));
		}

	}

	static class Big {

		@McpResource(uri = "big://{+path}")
		String item(String path) {
			return path;
		}

	}

}
