package io.github.mcpsubscriptions.transport;

import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Session limits, idle expiry and shutdown, each on its own application over a real port.
 */
class McpSessionLifecycleTests {

	private ConfigurableApplicationContext context;

	@AfterEach
	void close() {
		if (this.context != null) {
			this.context.close();
		}
	}

	private McpTestClient start(String... properties) {
		SpringApplication application = new SpringApplication(McpTestApplication.class);
		String[] args = new String[properties.length + 1];
		args[0] = "--server.port=0";
		for (int i = 0; i < properties.length; i++) {
			args[i + 1] = "--" + properties[i];
		}
		this.context = application.run(args);
		int port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		return new McpTestClient(port);
	}

	@Test
	void sessionLimitIsAnsweredWithServiceUnavailable() throws Exception {
		McpTestClient client = start("mcp.sessions.max=2");
		client.initialize();
		String second = client.initialize();
		HttpResponse<String> refused = client.post(client.initializeBody("2025-11-25"));
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Retry-After")).isPresent();
		JsonNode error = McpTestClient.json(refused.body()).get("error");
		assertThat(error.get("code").intValue()).isEqualTo(-32000);
		assertThat(error.get("message").stringValue()).contains("mcp.sessions.max=2");
		assertThat(error.get("data").get("value").intValue()).isEqualTo(2);
		assertThat(client.delete(second).statusCode()).isEqualTo(204);
		assertThat(client.post(client.initializeBody("2025-11-25")).statusCode()).isEqualTo(200);
	}

	@Test
	void idleSessionsExpireAndAreThenNotFound() throws Exception {
		McpTestClient client = start("mcp.sessions.idle-timeout=300ms");
		McpSessionManager sessions = this.context.getBean(McpSessionManager.class);
		String sessionId = client.initialize();
		assertThat(sessions.getSessionCount()).isOne();
		await().atMost(Duration.ofSeconds(10)).until(() -> sessions.getSessionCount() == 0);
		assertThat(client.call(sessionId, "ping", null).statusCode()).isEqualTo(404);
	}

	@Test
	void sessionWithOpenStreamDoesNotExpire() throws Exception {
		McpTestClient client = start("mcp.sessions.idle-timeout=300ms");
		McpSessionManager sessions = this.context.getBean(McpSessionManager.class);
		String idle = client.initialize();
		String streaming = client.initialize();
		try (SseStream stream = client.openStream(streaming)) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(10)).until(() -> sessions.getSessionCount() == 1);
			assertThat(client.call(idle, "ping", null).statusCode()).isEqualTo(404);
			assertThat(client.call(streaming, "ping", null).statusCode()).isEqualTo(200);
		}
	}

	@Test
	void clientClosingStreamIsNoticedByHeartbeats() throws Exception {
		McpTestClient client = start("mcp.endpoint.heartbeat-interval=100ms");
		McpSessionManager sessions = this.context.getBean(McpSessionManager.class);
		String sessionId = client.initialize();
		SseStream stream = client.openStream(sessionId);
		await().atMost(Duration.ofSeconds(5)).until(() -> sessions.getOpenStreamCount() == 1);
		stream.close();
		await().atMost(Duration.ofSeconds(10)).until(() -> sessions.getOpenStreamCount() == 0);
		assertThat(client.call(sessionId, "ping", null).statusCode()).isEqualTo(200);
	}

	@Test
	void shutdownCompletesOpenStreams() throws Exception {
		McpTestClient client = start("mcp.endpoint.heartbeat-interval=0s");
		String sessionId = client.initialize();
		try (SseStream stream = client.openStream(sessionId)) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			long started = System.nanoTime();
			this.context.close();
			assertThat(stream.awaitEnd(Duration.ofSeconds(5))).as("the stream ends with the application").isTrue();
			// Graceful shutdown did not wait for the stream's request to time out.
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
		}
	}

}
