package io.github.mcpsubscriptions.transport;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When the server itself ends a stream the client is meant to resume, it sends an SSE
 * {@code retry} field just before: on shutdown and when it gives up a slow consumer. A
 * stream the server ends for good (its session deleted, a newer GET stream in its place)
 * gets none: the client has nothing to come back for. Clients before 2025-11-25 never get
 * the field, nor does anyone with {@code mcp.sessions.retry=0}.
 */
class StreamEndRetryTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Test
	void shutdownSendsRetryBeforeEndingResumableStreams() throws Exception {
		ConfigurableApplicationContext context = start("--mcp.sessions.retry=1500ms");
		McpTestClient client = new McpTestClient(port(context));
		String newest = subscribed(client, "2025-11-25");
		String older = subscribed(client, "2025-06-18");
		try (SseStream resumable = client.openStream(newest); SseStream old = client.openStream(older)) {
			context.publishEvent(new ResourceChangedEvent("t://items/1"));
			assertThat(resumable.nextMessage(WAIT)).isNotNull();
			assertThat(old.nextMessage(WAIT)).isNotNull();
			context.close();
			assertThat(resumable.awaitEnd(WAIT)).as("the stream ended").isTrue();
			assertThat(old.awaitEnd(WAIT)).as("the older client's stream ended").isTrue();
			List<SseEvent> last = drain(resumable);
			assertThat(last).isNotEmpty();
			SseEvent end = last.get(last.size() - 1);
			assertThat(end.retry()).as("the last thing on the stream").isEqualTo("1500");
			assertThat(end.data()).isNull();
			assertThat(drain(old)).noneMatch((event) -> event.retry() != null);
		}
		finally {
			context.close();
		}
	}

	@Test
	void aDeletedSessionsStreamEndsWithoutRetry() throws Exception {
		ConfigurableApplicationContext context = start("--mcp.sessions.retry=1500ms");
		try {
			McpTestClient client = new McpTestClient(port(context));
			String session = subscribed(client, "2025-11-25");
			try (SseStream stream = client.openStream(session)) {
				context.publishEvent(new ResourceChangedEvent("t://items/1"));
				assertThat(stream.nextMessage(WAIT)).isNotNull();
				assertThat(client.delete(session).statusCode()).isEqualTo(204);
				assertThat(stream.awaitEnd(WAIT)).as("the stream ended").isTrue();
				assertThat(drain(stream)).as("nothing to come back for").noneMatch((event) -> event.retry() != null);
			}
		}
		finally {
			context.close();
		}
	}

	@Test
	void aStreamReplacedByANewerGetEndsWithoutRetry() throws Exception {
		ConfigurableApplicationContext context = start("--mcp.sessions.retry=1500ms");
		try {
			McpTestClient client = new McpTestClient(port(context));
			String session = subscribed(client, "2025-11-25");
			try (SseStream replaced = client.openStream(session)) {
				context.publishEvent(new ResourceChangedEvent("t://items/1"));
				assertThat(replaced.nextMessage(WAIT)).isNotNull();
				try (SseStream newer = client.openStream(session)) {
					assertThat(replaced.awaitEnd(WAIT)).as("the replaced stream ended").isTrue();
					assertThat(drain(replaced)).as("the client reads the newer stream already")
						.noneMatch((event) -> event.retry() != null);
					context.publishEvent(new ResourceChangedEvent("t://items/2"));
					assertThat(newer.nextMessage(WAIT)).as("the newer stream delivers").isNotNull();
				}
			}
		}
		finally {
			context.close();
		}
	}

	@Test
	void noRetryOnShutdownWhenTurnedOff() throws Exception {
		ConfigurableApplicationContext context = start("--mcp.sessions.retry=0");
		McpTestClient client = new McpTestClient(port(context));
		String newest = subscribed(client, "2025-11-25");
		try (SseStream stream = client.openStream(newest)) {
			context.publishEvent(new ResourceChangedEvent("t://items/1"));
			assertThat(stream.nextMessage(WAIT)).isNotNull();
			context.close();
			assertThat(stream.awaitEnd(WAIT)).isTrue();
			assertThat(drain(stream)).noneMatch((event) -> event.retry() != null);
		}
		finally {
			context.close();
		}
	}

	@Test
	void overflowCloseSendsRetryBeforeEndingTheStream() throws Exception {
		// A small outbox and a long write timeout: the outbox overflows first, and the
		// client, reading again, still gets the end within the timeout.
		slowConsumerCloseSendsRetry(true, "--mcp.notifications.outbox-capacity=4",
				"--mcp.notifications.write-timeout=20s");
	}

	@Test
	void stallCloseSendsRetryBeforeEndingTheStream() throws Exception {
		// A large outbox and a short write timeout: the watchdog gives the stream up
		// first.
		slowConsumerCloseSendsRetry(false, "--mcp.notifications.outbox-capacity=1000",
				"--mcp.notifications.write-timeout=3s");
	}

	private void slowConsumerCloseSendsRetry(boolean overflow, String... settings) throws Exception {
		List<String> args = new ArrayList<>(List.of(settings));
		args.add("--mcp.sessions.retry=1234ms");
		args.add("--mcp.endpoint.heartbeat-interval=400ms");
		ConfigurableApplicationContext context = start(args.toArray(String[]::new));
		try {
			int port = port(context);
			McpTestClient client = new McpTestClient(port);
			String session = subscribed(client, "2025-11-25");
			McpSessionManager sessions = context.getBean(McpSessionManager.class);
			NotificationEngine dispatcher = context.getBean(NotificationEngine.class);
			try (Socket socket = new Socket()) {
				socket.setReceiveBufferSize(1024);
				socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
				OutputStream out = socket.getOutputStream();
				// HTTP/1.0: the body is the event stream itself, ended by closing the
				// connection.
				out.write(("GET /mcp HTTP/1.0\r\nHost: localhost:" + port + "\r\nAccept: text/event-stream\r\n"
						+ "Mcp-Session-Id: " + session + "\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII));
				out.flush();
				await().atMost(WAIT).until(() -> sessions.getStream(session) != null);
				String pad = "x".repeat(32 * 1024);
				for (int n = 0; n < (overflow ? 40 : 8) && sessions.getStream(session) != null; n++) {
					context.publishEvent(new ResourceChangedEvent("t://items/" + n, Map.of("pad", pad)));
				}
				await().atMost(WAIT)
					.pollInterval(Duration.ofMillis(20))
					.until(() -> sessions.getStream(session) == null);
				if (overflow) {
					assertThat(dispatcher.getStats().getOverflows()).as("given up on overflow").isPositive();
				}
				else {
					assertThat(dispatcher.getStats().getStalls()).as("given up by the write timeout").isPositive();
					assertThat(dispatcher.getStats().getOverflows()).isZero();
				}
				socket.setSoTimeout((int) WAIT.toMillis());
				String received = readToEnd(socket.getInputStream());
				assertThat(received).as("the response ends with a retry field").endsWith("\n\nretry:1234\n\n");
			}
		}
		finally {
			context.close();
		}
	}

	private static ConfigurableApplicationContext start(String... args) {
		List<String> all = new ArrayList<>(List.of(args));
		all.add("--server.port=0");
		return new SpringApplication(McpTestApplication.class, Resources.class).run(all.toArray(String[]::new));
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	private static String subscribed(McpTestClient client, String version) throws Exception {
		String session = client.initialize(version);
		client.call(session, "resources/subscribe", "{\"uri\":\"t://items/{id}\"}");
		return session;
	}

	private static List<SseEvent> drain(SseStream stream) throws InterruptedException {
		List<SseEvent> events = new ArrayList<>();
		SseEvent event;
		while ((event = stream.next(Duration.ZERO)) != null) {
			events.add(event);
		}
		return events;
	}

	private static String readToEnd(InputStream in) throws Exception {
		ByteArrayOutputStream all = new ByteArrayOutputStream();
		in.transferTo(all);
		return all.toString(StandardCharsets.UTF_8);
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Items items() {
			return new Items();
		}

		@Bean
		WebServerFactoryCustomizer<TomcatServletWebServerFactory> smallSendBuffers() {
			// Small socket buffers make a client that does not read fill them soon.
			return (factory) -> factory
				.addConnectorCustomizers((connector) -> connector.setProperty("socket.txBufSize", "8192"));
		}

	}

	static class Items {

		@McpResource(uri = "t://items/{id}")
		String item(String id) {
			return "item " + id;
		}

	}

}
