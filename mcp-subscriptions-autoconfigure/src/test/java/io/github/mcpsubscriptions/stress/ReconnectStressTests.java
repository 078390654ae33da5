package io.github.mcpsubscriptions.stress;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.test.McpTestApplication;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * 1,000 reconnections with {@code Last-Event-ID} under a steady flow of changes lose no
 * notification and duplicate none. Loopback only, bounded in count and time.
 */
@SpringBootTest(classes = { McpTestApplication.class, ReconnectStressTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = "mcp.endpoint.heartbeat-interval=400ms")
class ReconnectStressTests {

	private static final int CYCLES = 1_000;

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher events;

	@Autowired
	private NotificationEngine dispatcher;

	@Test
	void reconnectCyclesLoseNothingInsideTheLogWindow() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		String session = client.initialize("2025-11-25");
		assertThat(
				json(client.call(session, "resources/subscribe", "{\"uri\":\"flow://items/{n}\"}").body()).has("error"))
			.isFalse();
		AtomicInteger published = new AtomicInteger();
		ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor();
		publisher.scheduleAtFixedRate(
				() -> this.events
					.publishEvent(new ResourceChangedEvent("flow://items/" + published.getAndIncrement(), Map.of())),
				0, 4, TimeUnit.MILLISECONDS);
		List<Integer> received = new ArrayList<>();
		String lastEventId = null;
		try {
			for (int cycle = 0; cycle < CYCLES; cycle++) {
				// Up to 16 per cycle: the reader outpaces the flow even on a slow
				// machine, so the gap
				// between publication and reading stays well inside the replay window.
				lastEventId = readSome(client, session, lastEventId, received, 16, Duration.ofMillis(100));
			}
		}
		finally {
			publisher.shutdownNow();
			publisher.awaitTermination(5, TimeUnit.SECONDS);
		}
		int total = published.get();
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (received.size() < total && System.nanoTime() < deadline) {
			lastEventId = readSome(client, session, lastEventId, received, 64, Duration.ofSeconds(1));
		}
		List<Integer> expected = new ArrayList<>();
		for (int n = 0; n < total; n++) {
			expected.add(n);
		}
		System.out.printf("reconnect stress: %d cycles, %d notifications published, %d received%n", CYCLES, total,
				received.size());
		assertThat(total).as("a steady flow ran during the cycles").isGreaterThan(CYCLES / 10);
		assertThat(received).as("every notification once, in order").isEqualTo(expected);
		// A cycle whose client gave up before its stream was attached read nothing and is
		// no
		// replay (the next cycle resumes from the same id); every other one is. Losses
		// and
		// repeats are what the assertions above rule out.
		assertThat(this.dispatcher.getStats().getReplays()).as("reconnections served by replay")
			.isGreaterThan(CYCLES * 9L / 10);
		assertThat(this.dispatcher.getStats().getResyncsQueued()).isZero();
	}

	/**
	 * Open the stream (resuming after the last id seen), read up to {@code max} messages,
	 * leave.
	 */
	private String readSome(McpTestClient client, String session, String lastEventId, List<Integer> received, int max,
			Duration wait) throws Exception {
		String last = lastEventId;
		try (SseStream stream = (last != null) ? client.openStream(session, "Last-Event-ID", last)
				: client.openStream(session)) {
			assertThat(stream.response().statusCode()).isEqualTo(200);
			for (int i = 0; i < max; i++) {
				// Wait for the first message; then take only what is already there.
				SseEvent event = stream.nextMessage((i == 0) ? wait : Duration.ofMillis(2));
				if (event == null) {
					break;
				}
				JsonNode params = json(event.data()).get("params");
				assertThat(params.get("_meta")).as("no resync inside the log window").isNull();
				String uri = params.get("uri").stringValue();
				received.add(Integer.parseInt(uri.substring(uri.lastIndexOf('/') + 1)));
				last = event.id();
			}
		}
		return last;
	}

	@Configuration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		Flow flow() {
			return new Flow();
		}

	}

	static class Flow {

		@McpResource(uri = "flow://items/{n}")
		String item(String n) {
			return n;
		}

	}

}
