package io.github.mcpsubscriptions.interop.jetty;

import java.time.Duration;

import io.github.mcpsubscriptions.interop.jetty.JettyApplication.Items;
import io.github.mcpsubscriptions.transport.McpEndpoint;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Jetty's idle timeout ({@code server.jetty.connection-idle-timeout}, 30 s by
 * default) does to streams: Jetty 12 applies it to a request only while a read or a write
 * is pending, so it ends an idle connection between requests but not an open stream, even
 * with heartbeats off; a stream whose client stops reading is given up by the starter's
 * {@code mcp.notifications.write-timeout} or by it, whichever comes first.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.endpoint.heartbeat-interval=0", "server.jetty.connection-idle-timeout=1s" })
class JettyIdleTimeoutTests {

	@Autowired
	private McpEndpoint endpoint;

	@Autowired
	private Items items;

	@LocalServerPort
	private int port;

	@Test
	void jettysIdleTimeoutEndsAnIdleConnectionButNotAnIdleStream() throws Exception {
		try (RawStream idle = RawStream.connect(this.port);
				RawStream listen = RawStream.connect(this.port).listen(1, JettyApplication.URI)) {
			assertThat(listen.readUntil("notifications/subscriptions/acknowledged")).startsWith("HTTP/1.1 200");
			// The timeout is in effect: a connection with no request is closed.
			assertThat(idle.endsWithin(Duration.ofSeconds(4))).isTrue();
			// The stream, silent for four idle timeouts, is open and delivers.
			assertThat(listen.endsWithin(Duration.ofSeconds(3))).as("ended: %s", listen.received()).isFalse();
			assertThat(this.endpoint.getOpenStreamCount()).isEqualTo(1);
			this.items.changed(4);
			assertThat(listen.readUntil("\"version\":4")).doesNotContain(":heartbeat");
		}
	}

}
