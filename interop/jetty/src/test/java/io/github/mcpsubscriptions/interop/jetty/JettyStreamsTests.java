package io.github.mcpsubscriptions.interop.jetty;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.mcpsubscriptions.interop.jetty.JettyApplication.Items;
import io.github.mcpsubscriptions.tester.AutoConfigureMcpTester;
import io.github.mcpsubscriptions.tester.McpNotification;
import io.github.mcpsubscriptions.tester.McpSession;
import io.github.mcpsubscriptions.tester.McpSubscription;
import io.github.mcpsubscriptions.tester.McpTester;
import io.github.mcpsubscriptions.transport.McpEndpoint;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Both eras' streams on a real Jetty: notifications, resumption with
 * {@code Last-Event-ID}, a listen stream released when its client cancels, and heartbeats
 * as SSE comments, which also keep Jetty's idle timeout (set shorter than the test waits)
 * from ending an idle stream.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.endpoint.heartbeat-interval=1s", "server.jetty.connection-idle-timeout=3s" })
@AutoConfigureMcpTester
class JettyStreamsTests {

	private static final Pattern EVENT_ID = Pattern.compile("(?m)^id: ?(\\S+)$");

	@Autowired
	private McpTester mcp;

	@Autowired
	private Items items;

	@Autowired
	private McpEndpoint endpoint;

	@Autowired
	private WebServerApplicationContext context;

	@LocalServerPort
	private int port;

	@Test
	void theServerIsJetty() {
		assertThat(this.context.getWebServer()).isInstanceOf(JettyWebServer.class);
	}

	@Test
	void aSessionsGetStreamIsToldOfAChange() {
		try (McpSession session = this.mcp.session()) {
			McpSubscription items = session.subscribe(JettyApplication.URI);
			this.items.changed(1);
			McpNotification notification = items.awaitNotification();
			assertThat(notification.uri()).isEqualTo(JettyApplication.URI);
			assertThat(notification.meta()).containsEntry("version", 1);
		}
	}

	@Test
	void aGetStreamResumesWithLastEventId() throws Exception {
		try (McpSession session = this.mcp.session()) {
			session.subscribe(JettyApplication.URI);
			String lastEventId;
			// The session's stream, taken over by a connection of the test's own: a new
			// GET
			// replaces the tester's.
			try (RawStream stream = RawStream.connect(this.port).sessionGet(session.id(), null)) {
				assertThat(stream.readUntil("\r\n\r\n")).startsWith("HTTP/1.1 200");
				this.items.changed(1);
				String received = stream.readUntil("\"version\":1");
				lastEventId = lastEventId(received);
			}
			// Published while no stream is open (or to the connection the client closed).
			this.items.changed(2);
			try (RawStream resumed = RawStream.connect(this.port).sessionGet(session.id(), lastEventId)) {
				assertThat(resumed.readUntil("\"version\":2")).startsWith("HTTP/1.1 200")
					.doesNotContain("\"version\":1");
			}
		}
	}

	@Test
	void aListenStreamIsAcknowledgedToldOfAChangeAndReleasedWhenItsClientCloses() {
		int before = this.endpoint.getOpenStreamCount();
		McpSubscription listening = this.mcp.listen(JettyApplication.URI);
		assertThat(listening.acknowledged()).containsExactly(JettyApplication.URI);
		assertThat(this.endpoint.getOpenStreamCount()).isEqualTo(before + 1);
		this.items.changed(7);
		McpNotification notification = listening.awaitNotification();
		assertThat(notification.uri()).isEqualTo(JettyApplication.URI);
		assertThat(notification.meta()).containsEntry("version", 7);
		// Over HTTP/1.1 closing the stream is the cancellation (the tester's
		// notifications/cancelled comes over another connection, so it ends nothing): as
		// on Tomcat, Jetty does not watch a stream's connection while nothing is written,
		// so the stream is released within two heartbeat intervals (1 s here).
		listening.close();
		await().atMost(Duration.ofSeconds(3)).until(() -> this.endpoint.getOpenStreamCount() == before);
	}

	@Test
	void aSessionsStreamIsReleasedAtOnceWhenItsClientDeletesTheSession() {
		int before = this.endpoint.getOpenStreamCount();
		McpSession session = this.mcp.session();
		session.subscribe(JettyApplication.URI);
		assertThat(this.endpoint.getOpenStreamCount()).isEqualTo(before + 1);
		session.close();
		await().atMost(Duration.ofMillis(500)).until(() -> this.endpoint.getOpenStreamCount() == before);
	}

	@Test
	void idleStreamsGetHeartbeatsAsCommentsAndOutliveJettysIdleTimeout() throws Exception {
		try (McpSession session = this.mcp.session()) {
			session.subscribe(JettyApplication.URI);
			heartbeatsOnBothEras(session);
		}
	}

	private void heartbeatsOnBothEras(McpSession session) throws Exception {
		try (RawStream get = RawStream.connect(this.port).sessionGet(session.id(), null);
				RawStream listen = RawStream.connect(this.port).listen(1, JettyApplication.URI)) {
			assertThat(get.readUntil("\r\n\r\n")).startsWith("HTTP/1.1 200");
			assertThat(listen.readUntil("notifications/subscriptions/acknowledged")).startsWith("HTTP/1.1 200");
			// Five heartbeat intervals, longer than the 3 s idle timeout: the streams
			// stay open because each heartbeat is a write.
			for (int i = 0; i < 5; i++) {
				get.readUntil("\n:heartbeat\n\n", Duration.ofSeconds(3));
				listen.readUntil("\n:heartbeat\n\n", Duration.ofSeconds(3));
			}
			this.items.changed(9);
			assertThat(get.readUntil("\"version\":9")).doesNotContain("HTTP/1.1 5");
			assertThat(listen.readUntil("\"version\":9")).doesNotContain("HTTP/1.1 5");
		}
	}

	private static String lastEventId(String received) {
		Matcher ids = EVENT_ID.matcher(received);
		String last = null;
		while (ids.find()) {
			last = ids.group(1);
		}
		assertThat(last).as("an event id in %s", received).isNotNull();
		return last;
	}

}
