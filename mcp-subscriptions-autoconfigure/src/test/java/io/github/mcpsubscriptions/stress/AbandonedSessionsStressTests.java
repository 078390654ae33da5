package io.github.mcpsubscriptions.stress;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * 10,000 sessions opened, subscribed and abandoned: after expiry nothing of them is left.
 * Loopback only, bounded in count and time.
 */
@SpringBootTest(classes = { McpTestApplication.class, AbandonedSessionsStressTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.sessions.idle-timeout=2s", "mcp.sessions.max=20000" })
class AbandonedSessionsStressTests {

	private static final int SESSIONS = 10_000;

	private static final int IN_FLIGHT = 32;

	@LocalServerPort
	private int port;

	@Autowired
	private McpSessionManager sessions;

	@Autowired
	private NotificationEngine dispatcher;

	@Test
	void abandonedSessionsLeaveNothingBehind() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		Semaphore inFlight = new Semaphore(IN_FLIGHT);
		AtomicInteger subscribed = new AtomicInteger();
		List<CompletableFuture<?>> all = new ArrayList<>();
		long started = System.nanoTime();
		for (int i = 0; i < SESSIONS; i++) {
			int n = i;
			inFlight.acquire();
			CompletableFuture<?> session = CompletableFuture.supplyAsync(() -> {
				try {
					String id = client.initialize("2025-11-25");
					HttpResponse<String> response = client.call(id, "resources/subscribe",
							"{\"uri\":\"gone://items/" + (n % 100) + "\"}");
					if (response.statusCode() == 200 && !response.body().contains("\"error\"")) {
						subscribed.incrementAndGet();
					}
					return id;
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}).whenComplete((id, ex) -> inFlight.release());
			all.add(session);
		}
		CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
		System.out.printf("abandoned sessions stress: %d sessions opened and subscribed in %d ms%n", SESSIONS,
				Duration.ofNanos(System.nanoTime() - started).toMillis());
		assertThat(subscribed).hasValue(SESSIONS);
		assertThat(this.dispatcher.getIndex().size()).isPositive();

		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.sessions.getSessionCount() == 0);
		assertThat(this.dispatcher.getIndex().size()).isZero();
		assertThat(this.dispatcher.getIndex().subscriberCount()).isZero();
		assertThat(this.dispatcher.getSubscribers()).isEmpty();
		assertThat(this.sessions.getOpenStreamCount()).isZero();
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Gone gone() {
			return new Gone();
		}

	}

	static class Gone {

		@McpResource(uri = "gone://items/{id}")
		String item(String id) {
			return id;
		}

	}

}
