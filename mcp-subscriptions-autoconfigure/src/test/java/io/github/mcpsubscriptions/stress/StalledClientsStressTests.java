package io.github.mcpsubscriptions.stress;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
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
 * Many clients that stop reading (issue #19, item 2): on any JDK, no thread waits for
 * them. A healthy client's notifications arrive promptly while 24 others have full socket
 * buffers, no thread is left blocked in a socket write, and giving their streams up
 * starts no thread per stream. Before writes went through the container's non-blocking
 * I/O, the small delivery pool was soon all blocked in writes and the healthy client
 * waited for the container's socket timeout. Loopback only, bounded in count and time.
 */
@SpringBootTest(classes = { McpTestApplication.class, StalledClientsStressTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.endpoint.heartbeat-interval=400ms", "mcp.notifications.outbox-capacity=64",
				"mcp.notifications.write-timeout=2s", "mcp.notifications.delivery-threads=4" })
class StalledClientsStressTests {

	private static final int STALLED = 24;

	private static final int SUBSCRIPTIONS = 8;

	private static final String PAD = "x".repeat(32 * 1024);

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private NotificationEngine dispatcher;

	@Test
	void clientsThatStopReadingHoldNoThreadAndDelayNoOne() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		String healthySession = client.initialize("2025-06-18");
		subscribe(client, healthySession, "big://healthy");
		List<Socket> stalled = new ArrayList<>();
		try (SseStream healthy = client.openStream(healthySession)) {
			// Warm up: the healthy path works, and the threads it needs exist.
			long warmUp = publishAndAwait(healthy, "big://healthy/warm-up", Duration.ofSeconds(10));
			assertThat(warmUp).isNotNegative();
			int threadsBefore = liveThreads();

			List<String> stalledSessions = new ArrayList<>();
			for (int i = 0; i < STALLED; i++) {
				String session = client.initialize("2025-11-25");
				for (int s = 0; s < SUBSCRIPTIONS; s++) {
					subscribe(client, session, "big://stalled/" + s);
				}
				stalledSessions.add(session);
				stalled.add(openWithoutReading(session));
			}
			// Fill every stalled client's socket buffers, and more.
			for (int n = 0; n < 6; n++) {
				for (int s = 0; s < SUBSCRIPTIONS; s++) {
					this.events
						.publishEvent(new ResourceChangedEvent("big://stalled/" + s + "/" + n, Map.of("pad", PAD)));
				}
			}

			// The healthy client is not held up, neither while the stalled writes are
			// pending nor after they are given up.
			List<Long> latencies = new ArrayList<>();
			for (int n = 0; n < 5; n++) {
				latencies.add(publishAndAwait(healthy, "big://healthy/" + n, Duration.ofSeconds(8)));
			}
			System.out.printf("stalled clients stress: healthy client's latencies in ms %s beside %d stalled clients%n",
					latencies, STALLED);
			assertThat(latencies).as("every healthy notification arrived, each within 5 s")
				.allSatisfy((latency) -> assertThat(latency).isBetween(0L, 5_000L));

			await().atMost(Duration.ofSeconds(20))
				.until(() -> stalledSessions.stream().allMatch((id) -> this.sessions.getStream(id) == null));
			assertThat(this.dispatcher.getStats().getStalls() + this.dispatcher.getStats().getOverflows())
				.as("the stalled streams were given up as slow consumers")
				.isGreaterThanOrEqualTo(STALLED);
			assertThat(publishAndAwait(healthy, "big://healthy/after", Duration.ofSeconds(8)))
				.as("and the healthy client still hears at once")
				.isBetween(0L, 5_000L);

			// The stalled clients still hold their connections open, without reading.
			ThreadInfo[] threads = ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
			assertThat(Arrays.stream(threads).map(ThreadInfo::getThreadName)).as("no thread per stalled stream")
				.noneMatch((name) -> name.startsWith("mcp-complete-stalled"));
			assertThat(Arrays.stream(threads).filter(StalledClientsStressTests::blockedInWrite))
				.as("threads blocked in a socket write")
				.extracting(StalledClientsStressTests::describe)
				.isEmpty();
			assertThat(liveThreads() - threadsBefore).as("threads started while %d clients stalled", STALLED)
				.isLessThan(STALLED / 2);
		}
		finally {
			for (Socket socket : stalled) {
				socket.close();
			}
		}
	}

	private long publishAndAwait(SseStream stream, String uri, Duration timeout) throws InterruptedException {
		long start = System.nanoTime();
		this.events.publishEvent(new ResourceChangedEvent(uri));
		SseEvent event = stream.next(timeout,
				(candidate) -> candidate.data() != null && candidate.data().contains("\"" + uri + "\""));
		return (event != null) ? (System.nanoTime() - start) / 1_000_000 : -1;
	}

	/**
	 * A thread parked or waiting inside a blocking write to a client: the container's
	 * blocking socket write, or an emitter's send.
	 */
	private static boolean blockedInWrite(ThreadInfo thread) {
		if (thread.getThreadState() == Thread.State.RUNNABLE || thread.getThreadState() == Thread.State.NEW) {
			return false;
		}
		return Arrays.stream(thread.getStackTrace())
			.anyMatch((frame) -> (frame.getClassName().startsWith("org.apache.tomcat.util.net.")
					&& frame.getMethodName().toLowerCase().contains("write"))
					|| frame.getClassName()
						.startsWith("org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter"));
	}

	private static String describe(ThreadInfo thread) {
		return thread.getThreadName() + " " + thread.getThreadState() + " at "
				+ Arrays.stream(thread.getStackTrace())
					.limit(12)
					.map(String::valueOf)
					.collect(Collectors.joining(" < "));
	}

	private static int liveThreads() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		return threads.getThreadCount();
	}

	private static void subscribe(McpTestClient client, String session, String uri) throws Exception {
		JsonNode body = json(client.call(session, "resources/subscribe", "{\"uri\":\"" + uri + "\"}").body());
		assertThat(body.has("error")).as(body.toString()).isFalse();
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

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Big big() {
			return new Big();
		}

		@Bean
		WebServerFactoryCustomizer<TomcatServletWebServerFactory> smallSendBuffers() {
			// Small socket buffers make a client that does not read fill them soon.
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
