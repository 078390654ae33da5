package io.github.mcpsubscriptions.events;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsubscriptions.test.McpTestClient;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.SseEvent;
import io.github.mcpsubscriptions.test.SseStream;
import io.github.mcpsubscriptions.test.TestUsers;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static io.github.mcpsubscriptions.test.McpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Push delivery ({@code events/stream}) over a real port and real SSE streams, by a
 * client that knows nothing but the draft (SEP-3415 of 2026-10-05).
 */
@SpringBootTest(classes = { EventsTestApplication.class, EventsStreamTests.Config.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.events.enabled=true", "mcp.events.push.heartbeat-interval=400ms",
				"mcp.events.push.scan-interval=20ms", "mcp.events.push.max-streams-per-principal=3",
				// A client's close over HTTP/1.1 is found by the second heartbeat after.
				"mcp.endpoint.heartbeat-interval=400ms" })
class EventsStreamTests {

	static final Duration WAIT = Duration.ofSeconds(10);

	static final String ALERTS = "\"name\":\"test.alert.raised\"";

	static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationEventPublisher publisher;

	@Autowired
	private MutableClock clock;

	@Autowired
	private EventStreams streams;

	@Autowired
	private MeterRegistry meters;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final List<SseStream> opened = new ArrayList<>();

	@AfterEach
	void closeStreams() {
		this.opened.forEach(SseStream::close);
		Config.revoked.clear();
		Config.hidden.clear();
		await().atMost(WAIT).until(() -> this.streams.getOpenStreamCount() == 0);
	}

	@Test
	void activeComesFirstThenTheMatchingEventsInOrderEachTaggedWithTheRequestId() throws Exception {
		SseStream stream = open("31", ALERTS + ",\"arguments\":{\"level\":\"high\"}", null);
		assertThat(stream.response().headers().firstValue("Content-Type").orElseThrow())
			.startsWith("text/event-stream");
		JsonNode active = params(stream, EventsWire.ACTIVE);
		assertThat(active.get("cursor").isString()).isTrue();
		assertThat(active.get("truncated").booleanValue()).isFalse();
		assertThat(active.get("_meta").get(SUBSCRIPTION_ID).isIntegralNumber()).isTrue();
		assertThat(active.get("_meta").get(SUBSCRIPTION_ID).intValue()).isEqualTo(31);
		raise(1, "low");
		raise(2, "high");
		raise(3, "low");
		raise(4, "high");
		JsonNode second = params(stream, EventsWire.EVENT);
		JsonNode fourth = params(stream, EventsWire.EVENT);
		assertThat(second.get("data").toString()).isEqualTo("{\"number\":2,\"level\":\"high\"}");
		assertThat(fourth.get("data").get("number").intValue()).isEqualTo(4);
		assertThat(second.propertyNames()).containsExactly("eventId", "name", "timestamp", "data", "cursor", "_meta");
		assertThat(second.get("name").stringValue()).isEqualTo("test.alert.raised");
		assertThat(Instant.parse(second.get("timestamp").stringValue())).isNotNull();
		assertThat(second.get("eventId").stringValue()).isNotEqualTo(fourth.get("eventId").stringValue());
		assertThat(second.get("cursor").stringValue()).isNotEqualTo(fourth.get("cursor").stringValue());
		assertThat(fourth.get("_meta").get(SUBSCRIPTION_ID).intValue()).isEqualTo(31);
	}

	@Test
	void aStringIdIsEchoedAsAString() throws Exception {
		SseStream stream = open("\"31\"", ALERTS, null);
		JsonNode active = params(stream, EventsWire.ACTIVE);
		assertThat(active.get("_meta").get(SUBSCRIPTION_ID).isString()).isTrue();
		assertThat(active.get("_meta").get(SUBSCRIPTION_ID).stringValue()).isEqualTo("31");
		raise(1, "high");
		assertThat(params(stream, EventsWire.EVENT).get("_meta").get(SUBSCRIPTION_ID).stringValue()).isEqualTo("31");
		assertThat(params(stream, EventsWire.HEARTBEAT).get("_meta").get(SUBSCRIPTION_ID).stringValue())
			.isEqualTo("31");
	}

	@Test
	void heartbeatsAreDataFramesThatCarryTheCursorAndNothingElseRidesTheStream() throws Exception {
		SseStream stream = open("7", ALERTS + ",\"arguments\":{\"level\":\"high\"}", null);
		String opening = params(stream, EventsWire.ACTIVE).get("cursor").stringValue();
		JsonNode first = params(stream, EventsWire.HEARTBEAT);
		assertThat(first.propertyNames()).containsExactly("cursor", "_meta");
		assertThat(first.get("cursor").stringValue()).isEqualTo(opening);
		// Nothing matches, yet the position the log was read up to moves on.
		raise(1, "low");
		this.publisher.publishEvent(new ProductChanged(1, "lamp", 10, ProductChanged.Change.created));
		await().atMost(WAIT)
			.until(() -> !params(stream, EventsWire.HEARTBEAT).get("cursor").stringValue().equals(opening));
		List<SseEvent> seen = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			seen.add(stream.next(WAIT));
		}
		assertThat(seen).allSatisfy((event) -> {
			assertThat(event.isComment()).as("no SSE comments: a comment cannot carry a cursor").isFalse();
			JsonNode message = json(event.data());
			assertThat(message.get("method").stringValue()).isEqualTo(EventsWire.HEARTBEAT);
			assertThat(message.get("params").get("_meta").get(SUBSCRIPTION_ID).intValue()).isEqualTo(7);
		});
	}

	@Test
	void aStreamResumesFromACursorWithNothingMissedOrRepeated() throws Exception {
		SseStream first = open("1", ALERTS, null);
		params(first, EventsWire.ACTIVE);
		raise(1, "high");
		raise(2, "high");
		String afterFirst = params(first, EventsWire.EVENT).get("cursor").stringValue();
		params(first, EventsWire.EVENT);
		first.close();
		raise(3, "high");
		SseStream resumed = open("2", ALERTS + ",\"cursor\":\"" + afterFirst + "\"", null);
		JsonNode active = params(resumed, EventsWire.ACTIVE);
		assertThat(active.get("cursor").stringValue()).isEqualTo(afterFirst);
		assertThat(active.get("truncated").booleanValue()).isFalse();
		assertThat(params(resumed, EventsWire.EVENT).get("data").get("number").intValue()).isEqualTo(2);
		assertThat(params(resumed, EventsWire.EVENT).get("data").get("number").intValue()).isEqualTo(3);
		raise(4, "high");
		assertThat(params(resumed, EventsWire.EVENT).get("data").get("number").intValue()).isEqualTo(4);
	}

	@Test
	void aCursorBehindTheRetainedLogOpensTruncatedWithAFreshCursorAndReplaysWhatIsLeft() throws Exception {
		String cursor = bootstrap();
		for (int i = 1; i <= 25; i++) {
			raise(i, "high");
		}
		SseStream stream = open("1", ALERTS + ",\"cursor\":\"" + cursor + "\"", null);
		JsonNode active = params(stream, EventsWire.ACTIVE);
		assertThat(active.get("truncated").booleanValue()).isTrue();
		assertThat(active.get("cursor").stringValue()).isNotEqualTo(cursor);
		for (int i = 6; i <= 25; i++) {
			assertThat(params(stream, EventsWire.EVENT).get("data").get("number").intValue()).isEqualTo(i);
		}
		String foreign = new EventsWire.Cursor("0123456789abcdef", 3).encode();
		SseStream other = open("2", ALERTS + ",\"cursor\":\"" + foreign + "\"", null);
		assertThat(params(other, EventsWire.ACTIVE).get("truncated").booleanValue()).isTrue();
	}

	@Test
	void maxAgeMsFloorsTheReplayAndTheFirstActiveSaysSo() throws Exception {
		String cursor = bootstrap();
		raise(1, "high");
		this.clock.advance(Duration.ofMinutes(10));
		raise(2, "high");
		SseStream floored = open("1", ALERTS + ",\"cursor\":\"" + cursor + "\",\"maxAgeMs\":300000", null);
		assertThat(params(floored, EventsWire.ACTIVE).get("truncated").booleanValue()).isTrue();
		assertThat(params(floored, EventsWire.EVENT).get("data").get("number").intValue()).isEqualTo(2);
		SseStream whole = open("2", ALERTS + ",\"cursor\":\"" + cursor + "\",\"maxAgeMs\":900000", null);
		assertThat(params(whole, EventsWire.ACTIVE).get("truncated").booleanValue()).isFalse();
		assertThat(params(whole, EventsWire.EVENT).get("data").get("number").intValue()).isEqualTo(1);
		SseStream fresh = open("3", ALERTS + ",\"cursor\":null,\"maxAgeMs\":1", null);
		assertThat(params(fresh, EventsWire.ACTIVE).get("truncated").booleanValue()).as("ignored without a cursor")
			.isFalse();
	}

	@Test
	void aClosedStreamIsReleasedAndItsQuotaGivenBack() throws Exception {
		List<SseStream> three = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			// Three at once on one type and arguments: none is a request a cap counts.
			three.add(open(Integer.toString(i), ALERTS, "alice"));
		}
		for (SseStream stream : three) {
			params(stream, EventsWire.ACTIVE);
		}
		assertThat(this.streams.getStreamCount("alice")).isEqualTo(3);
		assertThat(this.meters.get("mcp.events.subscriptions").tag("mode", "push").gauge().value()).isEqualTo(3);
		JsonNode refused = error(post("4", ALERTS, "alice"));
		assertThat(refused.get("code").intValue()).isEqualTo(-32025);
		assertThat(refused.get("message").stringValue()).isEqualTo("ResourceExhausted");
		assertThat(refused.get("data").toString()).isEqualTo("{\"limit\":\"subscriptions\",\"max\":3}");
		// Another principal's, and anonymous streams, are not alice's.
		params(open("5", ALERTS, "bob"), EventsWire.ACTIVE);
		for (int i = 0; i < 4; i++) {
			params(open(Integer.toString(10 + i), ALERTS, null), EventsWire.ACTIVE);
		}
		three.get(0).close();
		await().atMost(WAIT).until(() -> this.streams.getStreamCount("alice") == 2);
		params(open("6", ALERTS, "alice"), EventsWire.ACTIVE);
	}

	@Test
	void aRevokedSubscriptionIsTerminatedForbiddenThenAnsweredAndClosed() throws Exception {
		SseStream stream = open("41", ALERTS, "mallory");
		params(stream, EventsWire.ACTIVE);
		raise(1, "high");
		params(stream, EventsWire.EVENT);
		Config.revoked.add("mallory");
		raise(2, "high");
		JsonNode terminated = params(stream, EventsWire.TERMINATED);
		assertThat(terminated.get("error").get("code").intValue()).isEqualTo(-32024);
		assertThat(terminated.get("error").get("message").stringValue()).isEqualTo("Forbidden");
		assertThat(terminated.get("_meta").get(SUBSCRIPTION_ID).intValue()).isEqualTo(41);
		JsonNode result = json(stream.nextMessage(WAIT).data());
		assertThat(result.get("id").intValue()).isEqualTo(41);
		assertThat(result.get("result").propertyNames()).containsExactly("resultType", "_meta");
		assertThat(result.get("result").get("resultType").stringValue()).isEqualTo("complete");
		assertThat(result.get("result").get("_meta").get(SUBSCRIPTION_ID).intValue()).isEqualTo(41);
		assertThat(stream.awaitEnd(WAIT)).isTrue();
		assertThat(stream.nextMessage(Duration.ofMillis(100))).as("nothing after the result").isNull();
		// Opening again while revoked: refused at once.
		assertThat(error(post("42", ALERTS, "mallory")).get("code").intValue()).isEqualTo(-32024);
	}

	@Test
	void aTypeThatGoesAwayForThePrincipalTerminatesItsStreamNotFound() throws Exception {
		SseStream stream = open("\"s\"", ALERTS, "trudy");
		params(stream, EventsWire.ACTIVE);
		Config.hidden.add("trudy");
		// No event needed: the next heartbeat judges again.
		JsonNode terminated = params(stream, EventsWire.TERMINATED);
		assertThat(terminated.get("error").get("code").intValue()).isEqualTo(-32023);
		assertThat(terminated.get("error").get("data").get("kind").stringValue()).isEqualTo("event");
		assertThat(terminated.get("_meta").get(SUBSCRIPTION_ID).stringValue()).isEqualTo("s");
		assertThat(stream.awaitEnd(WAIT)).isTrue();
	}

	@Test
	void invalidRequestsAreOneJsonErrorAndNoStream() throws Exception {
		assertError(post("1", "\"name\":\"no.such\"", null), -32023, "{\"kind\":\"event\",\"name\":\"no.such\"}");
		assertError(post("2", "\"name\":\"catalog.product.changed\"", null), -32026,
				"{\"feature\":\"deliveryMode\",\"value\":\"push\"}");
		for (String params : new String[] { "\"arguments\":{}", "\"name\":7", ALERTS + ",\"arguments\":[]",
				ALERTS + ",\"arguments\":{\"level\":3}", ALERTS + ",\"arguments\":{\"levle\":\"high\"}",
				ALERTS + ",\"cursor\":\"not-a-cursor\"", ALERTS + ",\"cursor\":17", ALERTS + ",\"maxAgeMs\":-1",
				ALERTS + ",\"maxAgeMs\":1.5" }) {
			assertError(post("4", params, null), -32602, null);
		}
		Config.revoked.add("eve");
		assertError(post("5", ALERTS, "eve"), -32024, "{\"name\":\"test.alert.raised\"}");
		String longId = "\"" + "x".repeat(300) + "\"";
		assertError(post(longId, ALERTS, null), -32602, null);
	}

	@Test
	void theMethodIsNotDefinedForAnInitializedSession() throws Exception {
		McpTestClient client = new McpTestClient(this.port);
		String session = client.initialize("2025-11-25");
		JsonNode body = json(client.call(session, "events/stream", "{" + ALERTS + "}").body());
		assertThat(body.get("error").get("code").intValue()).isEqualTo(-32601);
	}

	@Test
	void listAdvertisesPushForTheTypesThatOfferIt() throws Exception {
		JsonNode list = json(new McpTestClient(this.port).stateless("events/list", "").body()).get("result");
		for (JsonNode type : list.get("events")) {
			if (type.get("name").stringValue().equals("test.alert.raised")) {
				assertThat(type.get("delivery")).extracting(JsonNode::stringValue).containsExactly("push", "poll");
				return;
			}
		}
		throw new AssertionError("test.alert.raised is not listed: " + list);
	}

	private void raise(int number, String level) {
		this.publisher.publishEvent(new AlertRaised(number, level));
	}

	private String bootstrap() throws Exception {
		JsonNode poll = json(new McpTestClient(this.port).stateless("events/poll", ALERTS).body());
		return poll.get("result").get("cursor").stringValue();
	}

	/** Open a stream, which must be a stream. */
	SseStream open(String id, String params, @Nullable String user) throws IOException, InterruptedException {
		HttpResponse<InputStream> response = send(id, params, user);
		assertThat(response.statusCode()).isEqualTo(200);
		SseStream stream = new SseStream(response);
		this.opened.add(stream);
		return stream;
	}

	/** Post a request that must be refused: its response is one JSON body. */
	private Answer post(String id, String params, @Nullable String user) throws IOException, InterruptedException {
		HttpResponse<InputStream> response = send(id, params, user);
		try (InputStream body = response.body()) {
			assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
			return new Answer(response.statusCode(), new String(body.readAllBytes(), StandardCharsets.UTF_8));
		}
	}

	private HttpResponse<InputStream> send(String id, String params, @Nullable String user)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = streamRequest(this.port, id, params);
		if (user != null) {
			request.header("X-Test-User", user);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
	}

	/**
	 * An {@code events/stream} request of the 2026 era, as a client posts it.
	 * @param port the server's port
	 * @param id the request's id, as JSON
	 * @param params the request's params, without their {@code _meta}
	 * @return the request, to which headers may be added
	 */
	static HttpRequest.Builder streamRequest(int port, String id, String params) {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"events/stream\",\"params\":{" + params + ","
				+ McpTestClient.META_2026 + "}}";
		return new McpTestClient(port).postRequest(body)
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", "events/stream");
	}

	/**
	 * The params of the next message, which must be of this method; heartbeats, which
	 * come whenever they are due, are skipped unless one is asked for.
	 */
	static JsonNode params(SseStream stream, String method) {
		try {
			SseEvent event = stream.next(WAIT, (candidate) -> candidate.data() != null
					&& (method.equals(EventsWire.HEARTBEAT) || !candidate.data().contains(EventsWire.HEARTBEAT)));
			assertThat(event).as("a " + method).isNotNull();
			JsonNode message = json(event.data());
			assertThat(message.get("method").stringValue()).as(event.data()).isEqualTo(method);
			return message.get("params");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static JsonNode error(Answer response) {
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = json(response.body());
		assertThat(body.has("result")).as(response.body()).isFalse();
		return body.get("error");
	}

	private static void assertError(Answer response, int code, @Nullable String data) {
		JsonNode error = error(response);
		assertThat(error.get("code").intValue()).as(response.body()).isEqualTo(code);
		if (data != null) {
			assertThat(error.get("data").toString()).isEqualTo(data);
		}
	}

	/** A refusal: one JSON body. */
	private record Answer(int statusCode, String body) {
	}

	@Configuration(proxyBeanMethods = false)
	@Import(TestUsers.class)
	static class Config {

		static final Set<String> revoked = ConcurrentHashMap.newKeySet();

		static final Set<String> hidden = ConcurrentHashMap.newKeySet();

		@Bean
		MutableClock eventsClock() {
			return new MutableClock(Instant.parse("2026-10-05T12:00:00Z"));
		}

		@Bean
		EventLog eventLog(MutableClock clock) {
			return new InMemoryEventLog(20, Duration.ofHours(1), clock);
		}

		@Bean
		McpEventAccessPolicy eventAccessPolicy() {
			return new McpEventAccessPolicy() {

				@Override
				public boolean canSee(@Nullable Principal principal, String eventType) {
					return principal == null || !hidden.contains(principal.getName());
				}

				@Override
				public boolean canSubscribe(@Nullable Principal principal, String eventType,
						@Nullable Object arguments) {
					return principal == null || !revoked.contains(principal.getName());
				}

			};
		}

	}

}
