package io.github.mcpsubscriptions.interop.jetty;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.tester.McpSession;
import io.github.mcpsubscriptions.tester.McpTester;
import io.github.mcpsubscriptions.transport.McpEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connector's ceiling on a real Jetty with a small
 * {@code server.jetty.max-connections} (Jetty then stops accepting connections past it):
 * past the limit less the reserve a new stream of either era is answered at once with 503
 * and {@code Retry-After}, while a request on a new connection is still answered. Without
 * the property Jetty has no limit, and neither has the endpoint.
 */
class JettyStreamCeilingTests {

	private static final int MAX_CONNECTIONS = 14;

	private static final int RESERVE = 6;

	private static final int MAX_STREAMS = MAX_CONNECTIONS - RESERVE;

	private static final Duration AT_ONCE = Duration.ofSeconds(1);

	private final List<RawStream> connections = new ArrayList<>();

	private ConfigurableApplicationContext context;

	@AfterEach
	void close() throws Exception {
		for (RawStream connection : this.connections) {
			connection.close();
		}
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void aStreamPastTheCeilingIsAnswered503AtOnceAndRequestsAreStillAnswered() throws Exception {
		int port = start("--server.jetty.max-connections=" + MAX_CONNECTIONS,
				"--mcp.endpoint.connection-reserve=" + RESERVE);
		McpEndpoint endpoint = this.context.getBean(McpEndpoint.class);
		assertThat(endpoint.getMaxStreams()).isEqualTo(MAX_STREAMS);
		try (McpTester mcp = McpTester.forUrl("http://localhost:" + port + "/mcp")) {
			List<McpSession> sessions = new ArrayList<>();
			for (int i = 0; i < MAX_STREAMS / 2; i++) {
				sessions.add(mcp.session());
			}
			assertThat(endpoint.getOpenStreamCount()).isEqualTo(sessions.size());
			for (int i = 0; i < MAX_STREAMS - sessions.size(); i++) {
				assertThat(connect(port).listen(i, JettyApplication.URI)
					.readUntil("notifications/subscriptions/acknowledged")).startsWith("HTTP/1.1 200");
			}
			assertThat(endpoint.getOpenStreamCount()).isEqualTo(MAX_STREAMS);

			// Past the ceiling: both eras answered at once, with Retry-After.
			long started = System.nanoTime();
			assertThat(connect(port).listen(99, JettyApplication.URI).readUntil("}}")).startsWith("HTTP/1.1 503")
				.containsIgnoringCase("Retry-After: ")
				.contains("-32000");
			assertThat(connect(port).sessionGet(sessions.get(0).id(), null).readUntil("}}")).startsWith("HTTP/1.1 503")
				.containsIgnoringCase("Retry-After: ");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(AT_ONCE.multipliedBy(2));

			// A request on a new connection is still answered.
			started = System.nanoTime();
			assertThat(connect(port).read(5, JettyApplication.URI).readUntil("}}")).startsWith("HTTP/1.1 200")
				.contains("\"contents\"");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(AT_ONCE);
			assertThat(endpoint.getOpenStreamCount()).isEqualTo(MAX_STREAMS);
			assertThat(endpoint.getRefusedStreamCount()).isEqualTo(2);
			Health health = this.context.getBean("mcpStreamsHealthIndicator", HealthIndicator.class).health();
			assertThat(health.getDetails()).containsEntry("maxStreams", MAX_STREAMS)
				.containsEntry("streamsUsed", "100%");
			sessions.forEach(McpSession::close);
		}
	}

	@Test
	void withoutMaxConnectionsJettyHasNoLimitAndNeitherHasTheEndpoint() {
		start();
		assertThat(this.context.getBean(McpEndpoint.class).getMaxStreams()).isEqualTo(Integer.MAX_VALUE);
	}

	@Test
	void minusOneIsUnlimited() {
		start("--server.jetty.max-connections=-1");
		assertThat(this.context.getBean(McpEndpoint.class).getMaxStreams()).isEqualTo(Integer.MAX_VALUE);
	}

	private int start(String... args) {
		List<String> all = new ArrayList<>(List.of("--server.port=0"));
		all.addAll(List.of(args));
		this.context = new SpringApplication(JettyApplication.class).run(all.toArray(String[]::new));
		return ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	private RawStream connect(int port) throws Exception {
		RawStream connection = RawStream.connect(port);
		this.connections.add(connection);
		return connection;
	}

}
