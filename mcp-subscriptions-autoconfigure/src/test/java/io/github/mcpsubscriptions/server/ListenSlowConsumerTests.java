package io.github.mcpsubscriptions.server;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A listen stream whose client never reads is ended by the server and counted as
 * {@code mcp.listen.ended{reason=slow-consumer}}, not as a client that left. Loopback
 * only, bounded in count and time.
 */
@SpringBootTest(classes = { McpTestApplication.class, ListenSlowConsumerTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "mcp.endpoint.heartbeat-interval=400ms",
				"mcp.notifications.outbox-capacity=32", "mcp.notifications.write-timeout=1s" })
class ListenSlowConsumerTests {

	private static final String PAD = "x".repeat(16 * 1024);

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private ListenManager listens;

	@Test
	void aListenerThatNeverReadsIsEndedAsASlowConsumer() throws Exception {
		ListenStats stats = this.listens.getStats();
		try (Socket socket = listenWithoutReading()) {
			for (int n = 0; n < 2000 && stats.getEnded(ListenStats.End.SLOW_CONSUMER) == 0; n++) {
				this.events.publishEvent(new ResourceChangedEvent("big://" + n, Map.of("pad", PAD)));
			}
			await().atMost(Duration.ofSeconds(20)).until(() -> stats.getEnded(ListenStats.End.SLOW_CONSUMER) == 1);
			assertThat(stats.getEnded(ListenStats.End.CLIENT)).isZero();
			assertThat(this.listens.getOpenStreamCount()).isZero();
		}
	}

	/** A listen stream whose client never reads, with the smallest receive buffer. */
	private Socket listenWithoutReading() throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\",\"params\":{"
				+ "\"notifications\":{\"resourceSubscriptions\":[\"big://\"]}," + McpTestClient.META_2026 + "}}";
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		Socket socket = new Socket();
		socket.setReceiveBufferSize(1024);
		socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 5000);
		OutputStream out = socket.getOutputStream();
		out.write(("POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nContent-Type: application/json\r\n"
				+ "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
				+ "Mcp-Method: subscriptions/listen\r\nContent-Length: " + bytes.length + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		out.write(bytes);
		out.flush();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.listens.getOpenStreamCount() == 1);
		return socket;
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Big big() {
			return new Big();
		}

	}

	static class Big {

		@McpResource(uri = "big://{+path}")
		String item(String path) {
			return path;
		}

	}

}
