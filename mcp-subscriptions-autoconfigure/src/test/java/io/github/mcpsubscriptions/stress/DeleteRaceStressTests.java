package io.github.mcpsubscriptions.stress;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code DELETE} racing subscribes of the same session: once every request has been
 * answered, the session is gone (404) and nothing it held is left — no session re-saved
 * by a request that found it just before the delete, no subscriber registered again, no
 * ownerless subscription in the index. Loopback only, bounded in count and time.
 */
@SpringBootTest(classes = { McpTestApplication.class, RacingRequests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.subscriptions.max-per-session=64", "mcp.subscriptions.max-total=100000" })
class DeleteRaceStressTests {

	private static final int ROUNDS = 300;

	private static final int SUBSCRIBES = 16;

	private final ExecutorService pool = Executors.newFixedThreadPool(SUBSCRIBES + 1);

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private NotificationEngine dispatcher;

	@AfterEach
	void stopPool() {
		this.pool.shutdownNow();
	}

	@Test
	void deleteRacingSubscribesLeavesNothingBehind() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		List<String> ids = new ArrayList<>();
		for (int round = 0; round < ROUNDS; round++) {
			String id = client.initialize("2025-11-25");
			ids.add(id);
			RacingRequests race = new RacingRequests(this.pool);
			List<CompletableFuture<HttpResponse<String>>> requests = race.addSubscribes(client, id, SUBSCRIBES);
			CompletableFuture<HttpResponse<String>> delete = race.add(() -> client.delete(id));
			race.go();
			assertThat(delete.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
			RacingRequests.assertAnsweredOrGone(requests);
		}
		assertThat(this.sessions.getSessionCount()).isZero();
		RacingRequests.assertNothingLeft(this.dispatcher);
		for (String id : ids) {
			assertThat(client.call(id, "ping", "{}").statusCode()).isEqualTo(404);
		}
	}

}
