package io.github.mcpsubscriptions.sample;

import java.time.Duration;

import io.github.mcpsubscriptions.session.McpSessionManager;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The official MCP Java SDK client, which nobody here wrote, against the sample
 * application over Streamable HTTP.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class JavaSdkClientInteropTests {

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessions;

	private McpSyncClient client() {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.port)
			.endpoint("/mcp")
			.build();
		return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(10)).build();
	}

	@Test
	void initializesPingsAndCloses() {
		int before = this.sessions.getSessionCount();
		McpSyncClient client = client();
		try {
			McpSchema.InitializeResult result = client.initialize();
			assertThat(result.protocolVersion()).isIn("2025-11-25", "2025-06-18", "2025-03-26");
			assertThat(result.serverInfo().name()).isEqualTo("mcp-subscriptions-sample");
			assertThat(result.instructions()).isNotBlank();
			assertThat(this.sessions.getSessionCount()).isEqualTo(before + 1);
			// The SDK opens the GET stream after notifications/initialized is accepted.
			await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getOpenStreamCount() >= 1);
			assertThat(client.ping()).isNotNull();
			client.setLoggingLevel(McpSchema.LoggingLevel.INFO);
		}
		finally {
			assertThat(client.closeGracefully()).isTrue();
		}
		// Closing sends DELETE: the session and its stream are gone.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getSessionCount() == before);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.sessions.getOpenStreamCount() == 0);
	}

}
