package io.github.mcpsubscriptions.stress;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.session.McpSession;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.SessionEndReason;
import io.github.mcpsubscriptions.session.SessionListener;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Idle expiry racing requests of the same session: once every request has been answered
 * and the session has expired, it is gone (404), it ended exactly once (no request that
 * found it just before brought it back), and nothing it held is left — no subscriber, no
 * ownerless subscription. The idle timeout is so short that a session expires between any
 * two of its requests, and the test sweeps continuously while they run. Loopback only,
 * bounded in count and time.
 */
@SpringBootTest(
		classes = { McpTestApplication.class, RacingRequests.Resources.class, ExpiryRaceStressTests.Ends.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "mcp.sessions.idle-timeout=1ms",
				"mcp.subscriptions.max-per-session=64", "mcp.subscriptions.max-total=100000" })
class ExpiryRaceStressTests {

	private static final int ROUNDS = 200;

	private static final int SUBSCRIBES = 16;

	private final ExecutorService pool = Executors.newFixedThreadPool(SUBSCRIBES);

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private NotificationEngine dispatcher;

	@Autowired
	private Ends ends;

	@AfterEach
	void stopPool() {
		this.pool.shutdownNow();
	}

	@Test
	void expiryRacingSubscribesLeavesNothingBehind() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		List<String> ids = new ArrayList<>();
		for (int round = 0; round < ROUNDS; round++) {
			String id = initialize(client);
			ids.add(id);
			RacingRequests race = new RacingRequests(this.pool);
			List<CompletableFuture<HttpResponse<String>>> requests = race.addSubscribes(client, id, SUBSCRIBES);
			CompletableFuture<Void> answered = CompletableFuture.allOf(requests.toArray(CompletableFuture[]::new));
			race.go();
			while (!answered.isDone()) {
				this.sessions.expireIdleSessions();
				// Paces the sweeps (thousands a second, still many per request) without
				// taking a whole core from a shared machine.
				LockSupport.parkNanos(50_000);
			}
			RacingRequests.assertAnsweredOrGone(requests);
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				this.sessions.expireIdleSessions();
				return this.sessions.getSessionCount() == 0;
			});
		}
		RacingRequests.assertNothingLeft(this.dispatcher);
		for (String id : ids) {
			assertThat(this.ends.count(id)).as("times session %s ended", id).isOne();
			assertThat(client.call(id, "ping", "{}").statusCode()).isEqualTo(404);
		}
	}

	/**
	 * Initialize without {@code notifications/initialized}: the session may well expire
	 * before a second request.
	 */
	private static String initialize(McpTestClient client) throws Exception {
		HttpResponse<String> response = client.post(client.initializeBody("2025-11-25"));
		assertThat(response.statusCode()).isEqualTo(200);
		return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
	}

	/** Counts how often each session ended: a session brought back would end twice. */
	static class Ends implements SessionListener {

		private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

		@Override
		public void sessionEnded(McpSession session, SessionEndReason reason) {
			this.counts.computeIfAbsent(session.getId(), (id) -> new AtomicInteger()).incrementAndGet();
		}

		int count(String id) {
			AtomicInteger count = this.counts.get(id);
			return (count != null) ? count.get() : 0;
		}

	}

}
