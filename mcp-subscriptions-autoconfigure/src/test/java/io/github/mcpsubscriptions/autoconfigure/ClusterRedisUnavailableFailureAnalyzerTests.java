package io.github.mcpsubscriptions.autoconfigure;

import java.net.ServerSocket;
import java.util.Map;

import io.github.mcpsubscriptions.test.McpTestApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A clustered node whose Redis is unreachable at start-up fails with a message that names
 * the Redis and the fix.
 */
class ClusterRedisUnavailableFailureAnalyzerTests {

	@Test
	void unreachableRedisAtStartUpIsExplained() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		Throwable failure = catchThrowable(() -> new SpringApplication(McpTestApplication.class).run("--server.port=0",
				"--mcp.cluster.enabled=true", "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + port,
				"--spring.data.redis.database=6", "--spring.data.redis.timeout=2s"));
		assertThat(failure).isNotNull();
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("test",
					Map.of("spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", Integer.toString(port))));
		FailureAnalysis analysis = new ClusterRedisUnavailableFailureAnalyzer(environment).analyze(failure);
		assertThat(analysis).as("analyzed, not a stack trace").isNotNull();
		assertThat(analysis.getDescription()).contains("mcp.cluster.enabled=true")
			.contains("127.0.0.1:" + port)
			.contains("cannot be reached");
		assertThat(analysis.getAction()).contains("spring.data.redis.host").contains("mcp.cluster.enabled=false");
	}

}
