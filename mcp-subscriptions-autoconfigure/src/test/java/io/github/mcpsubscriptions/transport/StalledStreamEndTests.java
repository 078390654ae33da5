package io.github.mcpsubscriptions.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.server.ListenManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import org.apache.catalina.core.StandardContext;
import org.apache.coyote.AbstractProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A stream the server gives up because its client stopped reading ends cleanly however
 * the client carries on: whether it leaves while the server waits for it to take the end,
 * leaves after the server gave up waiting, reads again, or does neither until the
 * container's write timeout. The server logs nothing about it, holds no asynchronous
 * request for it (which a graceful shutdown would wait for), and serves the next client.
 * <p>
 * Before, the container's report of the failed write after the stream had completed its
 * response was left unanswered, and the container wrote an error page into the event
 * stream, which Spring MVC refused with two WARNs per client ("No converter for [class
 * java.util.LinkedHashMap] with preset Content-Type 'text/event-stream'"); and a response
 * completed while the container still held bytes the client had not taken was lost track
 * of by Tomcat when the client reset the connection (a {@code RecycleRequiredException}
 * logged, and the graceful shutdown waiting for the request until its timeout).
 */
@ExtendWith(OutputCaptureExtension.class)
class StalledStreamEndTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String PAD = "x".repeat(32 * 1024);

	private ConfigurableApplicationContext context;

	private int port;

	private AbstractProtocol<?> connector;

	private long idleConnections;

	private StandardContext webApplication;

	private ListenManager listens;

	private McpEndpoint endpoint;

	private NotificationEngine dispatcher;

	@AfterEach
	void close() {
		if (this.context != null && this.context.isActive()) {
			this.context.close();
		}
	}

	@Test
	void aStalledStreamWhoseClientLeavesWhileTheServerClosesItEndsWithoutAnErrorPage(CapturedOutput output)
			throws Exception {
		// A long write timeout: the client leaves while the server waits for it to take
		// the end.
		start("mcp.notifications.write-timeout=3s");
		try (Socket socket = openListenStreamWithoutReading()) {
			stall();
			assertThat(this.endpoint.getOpenStreamCount()).as("closing, waiting for the client").isOne();
			// Now the client leaves, with unread bytes in its buffer: the connection is
			// reset,
			// and the container tells of the failed write.
		}
		awaitConnectionGone();
		assertQuietAndHealthy(output);
	}

	@Test
	void aStalledStreamWhoseClientLeavesAfterTheServerGaveItUpEndsWithoutAStrandedRequest(CapturedOutput output)
			throws Exception {
		// A short write timeout: the server gives the stream up while the client still
		// holds on.
		start("mcp.notifications.write-timeout=300ms");
		try (Socket socket = openListenStreamWithoutReading()) {
			stall();
			await().atMost(WAIT).until(() -> this.endpoint.getOpenStreamCount() == 0);
			assertThat(this.connector.getConnectionCount()).as("the client's connection is still open")
				.isEqualTo(this.idleConnections + 1);
		}
		awaitConnectionGone();
		assertQuietAndHealthy(output);
	}

	@Test
	void aStalledStreamWhoseClientReadsAgainAfterTheServerGaveItUpGetsTheEndOfTheResponse(CapturedOutput output)
			throws Exception {
		start("mcp.notifications.write-timeout=300ms");
		try (Socket socket = openListenStreamWithoutReading()) {
			stall();
			await().atMost(WAIT).until(() -> this.endpoint.getOpenStreamCount() == 0);
			// The client reads again: it gets what the server had handed over, then the
			// end of the chunked response.
			readUntilEnd(socket, "\r\n0\r\n\r\n");
			assertThat(this.connector.getConnectionCount()).as("kept alive for the next request")
				.isEqualTo(this.idleConnections + 1);
		}
		awaitConnectionGone();
		assertQuietAndHealthy(output);
	}

	@Test
	void aStalledStreamWhoseClientNeitherReadsNorLeavesEndsAtTheContainersWriteTimeout(CapturedOutput output)
			throws Exception {
		start("mcp.notifications.write-timeout=300ms", "server.tomcat.connection-timeout=1s");
		try (Socket socket = openListenStreamWithoutReading()) {
			stall();
			await().atMost(WAIT).until(() -> this.endpoint.getOpenStreamCount() == 0);
			// The container gives up the write the client never takes, and closes the
			// connection.
			awaitConnectionGone();
			assertQuietAndHealthy(output);
		}
	}

	private void start(String... properties) {
		String[] args = new String[properties.length + 2];
		args[0] = "--server.port=0";
		args[1] = "--mcp.endpoint.heartbeat-interval=400ms";
		for (int i = 0; i < properties.length; i++) {
			args[i + 2] = "--" + properties[i];
		}
		this.context = new SpringApplication(McpTestApplication.class, Resources.class).run(args);
		TomcatWebServer server = (TomcatWebServer) ((WebServerApplicationContext) this.context).getWebServer();
		this.port = server.getPort();
		this.connector = (AbstractProtocol<?>) server.getTomcat().getConnector().getProtocolHandler();
		this.webApplication = (StandardContext) server.getTomcat().getHost().findChildren()[0];
		this.listens = this.context.getBean(ListenManager.class);
		this.endpoint = this.context.getBean(McpEndpoint.class);
		this.dispatcher = this.context.getBean(NotificationEngine.class);
		// The acceptor counts the connection it waits for.
		this.idleConnections = this.connector.getConnectionCount();
	}

	/** A listen stream whose client reads the acknowledgement and nothing more. */
	private Socket openListenStreamWithoutReading() throws IOException {
		Socket socket = new Socket();
		socket.setReceiveBufferSize(1024);
		socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 5000);
		socket.setSoTimeout((int) WAIT.toMillis());
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\",\"params\":{"
				+ "\"notifications\":{\"resourceSubscriptions\":[\"big://items\"]}," + McpTestClient.META_2026 + "}}";
		OutputStream out = socket.getOutputStream();
		out.write(("POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nContent-Type: application/json\r\n"
				+ "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
				+ "Mcp-Method: subscriptions/listen\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length
				+ "\r\n\r\n" + body)
			.getBytes(StandardCharsets.UTF_8));
		out.flush();
		readUntil(socket, "notifications/subscriptions/acknowledged");
		return socket;
	}

	/**
	 * Publish more than the client's and the server's socket buffers hold, and wait until
	 * the server has given the stream up: a write stayed untaken for the write timeout.
	 */
	private void stall() {
		for (int n = 0; n < 16; n++) {
			this.context.publishEvent(new ResourceChangedEvent("big://items/" + n, Map.of("pad", PAD)));
		}
		await().atMost(WAIT).until(() -> this.dispatcher.getStats().getStalls() == 1);
		assertThat(this.listens.getOpenStreamCount()).isZero();
		assertThat(this.connector.getConnectionCount()).as("the client's connection is open")
			.isEqualTo(this.idleConnections + 1);
	}

	/**
	 * Wait until the container has let the client's connection go: it has dealt with the
	 * failed write by then, and logged whatever it logs about it.
	 */
	private void awaitConnectionGone() {
		await().atMost(WAIT).until(() -> this.connector.getConnectionCount() == this.idleConnections);
	}

	private void assertQuietAndHealthy(CapturedOutput output) throws Exception {
		assertThat(output.toString()).doesNotContain("No converter")
			.doesNotContain(" WARN ")
			.doesNotContain(" ERROR ")
			.doesNotContain("Exception");
		await().atMost(WAIT).until(() -> this.endpoint.getOpenStreamCount() == 0);
		assertThat(this.webApplication.getInProgressAsyncCount())
			.as("asynchronous requests the container waits for at shutdown")
			.isZero();
		// And the server serves the next client.
		try (SseStream next = new McpTestClient(this.port).listen("{\"resourceSubscriptions\":[\"big://items\"]}")) {
			assertThat(next.response().statusCode()).isEqualTo(200);
			assertThat(next.nextMessage(WAIT)).as("acknowledged").isNotNull();
			this.context.publishEvent(new ResourceChangedEvent("big://items/after"));
			assertThat(json(next.nextMessage(WAIT).data()).get("params").get("uri").stringValue())
				.isEqualTo("big://items/after");
		}
	}

	private static void readUntil(Socket socket, String text) throws IOException {
		InputStream in = socket.getInputStream();
		StringBuilder received = new StringBuilder();
		byte[] buffer = new byte[256];
		while (received.indexOf(text) < 0) {
			int read = in.read(buffer);
			assertThat(read).as("the stream ended before " + text + ": " + received).isPositive();
			received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
		}
	}

	/** Read until the stream's last bytes are {@code end}, keeping only the last few. */
	private static void readUntilEnd(Socket socket, String end) throws IOException {
		InputStream in = socket.getInputStream();
		StringBuilder tail = new StringBuilder();
		byte[] buffer = new byte[64 * 1024];
		while (!tail.toString().endsWith(end)) {
			int read = in.read(buffer);
			assertThat(read).as("the connection closed before the response ended").isPositive();
			tail.append(new String(buffer, 0, read, StandardCharsets.ISO_8859_1));
			if (tail.length() > 64) {
				tail.delete(0, tail.length() - 64);
			}
		}
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

		@McpResource(uri = "big://items")
		String all() {
			return "[]";
		}

		@McpResource(uri = "big://items/{id}")
		String item(String id) {
			return id;
		}

	}

}
