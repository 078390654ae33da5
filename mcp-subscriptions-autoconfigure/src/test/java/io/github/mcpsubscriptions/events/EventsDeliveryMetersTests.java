package io.github.mcpsubscriptions.events;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseStream;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What poll and push hand to clients is counted ({@code mcp.events.delivered},
 * {@code mcp.events.push.lag}, {@code mcp.events.subscriptions{mode=push}}), and a push
 * stream is written as soon as an event is recorded on its node: the push scan here runs
 * once an hour, so only the log's append signal can bring the event in time.
 */
@SpringBootTest(classes = EventsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.events.enabled=true", "mcp.events.push.scan-interval=1h",
				// A client's close over HTTP/1.1 is found by the second heartbeat after.
				"mcp.events.push.heartbeat-interval=400ms", "mcp.endpoint.heartbeat-interval=400ms" })
class EventsDeliveryMetersTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String ALERTS = "\"name\":\"test.alert.raised\"";

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher publisher;

	@Autowired
	private MeterRegistry meters;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@Test
	void aPushStreamIsWrittenAtOnceAndCountedAsArePolledEvents() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		String cursor = json(client.stateless("events/poll", ALERTS).body()).get("result").get("cursor").stringValue();
		double pushed = delivered("push");
		double polled = delivered("poll");
		long lags = this.meters.get("mcp.events.push.lag").timer().count();
		HttpResponse<InputStream> response = this.http.send(
				EventsStreamTests.streamRequest(this.port, "5", ALERTS).build(),
				HttpResponse.BodyHandlers.ofInputStream());
		assertThat(response.statusCode()).isEqualTo(200);
		try (SseStream stream = new SseStream(response)) {
			EventsStreamTests.params(stream, EventsWire.ACTIVE);
			assertThat(streams()).isEqualTo(1);
			this.publisher.publishEvent(new AlertRaised(1, "high"));
			this.publisher.publishEvent(new AlertRaised(2, "low"));
			assertThat(EventsStreamTests.params(stream, EventsWire.EVENT).get("data").get("number").intValue())
				.isEqualTo(1);
			assertThat(EventsStreamTests.params(stream, EventsWire.EVENT).get("data").get("number").intValue())
				.isEqualTo(2);
			assertThat(delivered("push") - pushed).isEqualTo(2);
			assertThat(this.meters.get("mcp.events.push.lag").timer().count() - lags).isEqualTo(2);
		}
		await().atMost(WAIT).until(() -> streams() == 0);

		JsonNode poll = json(client.stateless("events/poll", ALERTS + ",\"cursor\":\"" + cursor + "\"").body());
		assertThat(poll.get("result").get("events")).hasSize(2);
		assertThat(delivered("poll") - polled).isEqualTo(2);
	}

	private double delivered(String mode) {
		return this.meters.get("mcp.events.delivered").tag("mode", mode).functionCounter().count();
	}

	private double streams() {
		return this.meters.get("mcp.events.subscriptions").tag("mode", "push").gauge().value();
	}

}
