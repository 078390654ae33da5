package io.github.mcpsubscriptions.events;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsubscriptions.eventsfixture.DynamicHappened;
import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Event types that come and go at run time, over a real port: listen streams that asked
 * are told ({@code notifications/events/list_changed}), push streams of a removed type
 * end with {@code NotFound}, and a poll of it answers {@code NotFound}.
 */
@SpringBootTest(classes = EventsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
		"mcp.events.enabled=true", "mcp.events.push.heartbeat-interval=400ms", "mcp.events.push.scan-interval=20ms" })
class EventTypeChangesTests {

	static final Duration WAIT = Duration.ofSeconds(10);

	static final String NAME = "test.dynamic.happened";

	@LocalServerPort
	private int port;

	@Autowired
	private EventTypeRegistry types;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@AfterEach
	void removeTheType() {
		this.types.unregister(NAME);
	}

	@Test
	void discoverAdvertisesListChanged() throws Exception {
		JsonNode capabilities = json(new McpTestClient(this.port).stateless("server/discover", "").body()).get("result")
			.get("capabilities");
		assertThat(capabilities.get("extensions").get(EventsWire.EXTENSION_ID).get("listChanged").booleanValue())
			.isTrue();
	}

	@Test
	void aListenStreamThatAskedIsToldOncePerChangeAndOneThatDidNotIsNot() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		try (SseStream asking = client.listen("{\"eventsListChanged\":true}");
				SseStream notAsking = client.listen("{\"toolsListChanged\":true}")) {
			JsonNode ack = json(asking.nextMessage(WAIT).data());
			assertThat(ack.get("params").get("notifications").get("eventsListChanged").booleanValue()).isTrue();
			JsonNode otherAck = json(notAsking.nextMessage(WAIT).data());
			assertThat(otherAck.get("params").get("notifications").has("eventsListChanged")).isFalse();

			this.types.register(EventTypeRegistry.describe(DynamicHappened.class));
			JsonNode added = json(asking.nextMessage(WAIT).data());
			assertThat(added.get("method").stringValue()).isEqualTo(EventsWire.LIST_CHANGED);
			assertThat(added.get("params").get("_meta").has("io.modelcontextprotocol/subscriptionId")).isTrue();
			assertThat(listed()).contains(NAME);

			this.types.unregister(NAME);
			assertThat(json(asking.nextMessage(WAIT).data()).get("method").stringValue())
				.isEqualTo(EventsWire.LIST_CHANGED);
			assertThat(listed()).doesNotContain(NAME);
			// Exactly one per change, and none where nobody asked.
			assertThat(asking.nextMessage(Duration.ofMillis(500))).isNull();
			assertThat(notAsking.nextMessage(Duration.ofMillis(500))).isNull();
		}
	}

	@Test
	void removingATypeEndsItsPushStreamsWithNotFoundAndPollsAnswerNotFound() throws Exception {
		this.types.register(EventTypeRegistry.describe(DynamicHappened.class));
		HttpResponse<InputStream> response = this.http.send(
				EventsStreamTests.streamRequest(this.port, "5", "\"name\":\"" + NAME + "\"").build(),
				HttpResponse.BodyHandlers.ofInputStream());
		assertThat(response.statusCode()).isEqualTo(200);
		try (SseStream stream = new SseStream(response)) {
			EventsStreamTests.params(stream, EventsWire.ACTIVE);
			this.types.unregister(NAME);
			JsonNode terminated = EventsStreamTests.params(stream, EventsWire.TERMINATED);
			assertThat(terminated.get("error").get("code").intValue()).isEqualTo(EventsWire.NOT_FOUND);
			assertThat(terminated.get("error").get("data").get("kind").stringValue()).isEqualTo("event");
			SseEvent result = stream.next(WAIT,
					(candidate) -> candidate.data() != null && candidate.data().contains("\"result\""));
			assertThat(json(result.data()).get("id").intValue()).isEqualTo(5);
		}
		JsonNode poll = json(new McpTestClient(this.port).stateless("events/poll", "\"name\":\"" + NAME + "\"").body());
		assertThat(poll.get("error").get("code").intValue()).isEqualTo(EventsWire.NOT_FOUND);
	}

	private String listed() throws Exception {
		return new McpTestClient(this.port).stateless("events/list", "").body();
	}

}
