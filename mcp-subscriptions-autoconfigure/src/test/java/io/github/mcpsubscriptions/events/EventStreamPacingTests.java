package io.github.mcpsubscriptions.events;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcRequest;
import io.github.mcpsubscriptions.server.McpStreamedMethod;
import io.github.mcpsubscriptions.test.ManualDeliveryScheduler;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.RecordingStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a push stream goes through the log, with a scheduler and a stream the test drives:
 * a replay written in turns bounded in bytes and only while the client takes them, and a
 * client that falls behind what the log retains told so mid-stream.
 */
class EventStreamPacingTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-10-05T12:00:00Z"));

	private final JsonRpcCodec codec = new JsonRpcCodec();

	private final EventTypeRegistry types = EventTypeRegistry.of(List.of(AlertRaised.class));

	private final ManualDeliveryScheduler scheduler = new ManualDeliveryScheduler(this.clock);

	private EventLog log;

	private EventStreams streams(int retention) {
		this.log = new InMemoryEventLog(retention, Duration.ofHours(1), this.clock);
		EventMethods methods = new EventMethods(this.types, this.log, McpEventAccessPolicy.PERMIT_ALL, this.codec, 100,
				Duration.ofSeconds(5), 100, new EventStats());
		EventStreams streams = new EventStreams(methods, this.scheduler, Duration.ofSeconds(20), Duration.ofMillis(100),
				3);
		streams.start();
		return streams;
	}

	@Test
	void aReplayIsWrittenInBoundedTurnsOnlyWhileTheClientTakesThem() {
		EventStreams streams = streams(5000);
		String cursor = new EventsWire.Cursor(this.log.epoch(), 0).encode();
		for (int i = 1; i <= 2000; i++) {
			raise(i);
		}
		RecordingStream stream = new RecordingStream();
		stream.holdWrites();
		McpStreamedMethod.Call call = streams.open(request(cursor), new McpStreamedMethod.Caller(null, "a", null));
		call.start(stream);
		assertThat(stream.written()).as("nothing while the client has not taken the last write").isEmpty();
		stream.taken();
		List<String> written = stream.written();
		assertThat(written).hasSize(2001);
		assertThat(method(written.get(0))).isEqualTo(EventsWire.ACTIVE);
		for (int i = 1; i <= 2000; i++) {
			assertThat(message(written.get(i)).get("params").get("data").get("number").intValue()).isEqualTo(i);
		}
		assertThat(stream.batches()).as("several turns, each of at most 64 KB").hasSizeGreaterThan(4);
		assertThat(stream.batches()).allSatisfy((messages) -> assertThat(messages).isLessThan(400));
	}

	@Test
	void aStreamThatFallsBehindTheLogGetsASecondActiveTruncatedAndGoesOn() {
		EventStreams streams = streams(5);
		RecordingStream stream = new RecordingStream();
		McpStreamedMethod.Call call = streams.open(request(null), new McpStreamedMethod.Caller(null, "a", null));
		call.start(stream);
		assertThat(stream.written()).hasSize(1);
		// Faster than the client: the log forgets 3 before this stream writes them.
		stream.holdWrites();
		for (int i = 1; i <= 8; i++) {
			raise(i);
		}
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(stream.written()).hasSize(1);
		stream.taken();
		List<String> written = stream.written();
		assertThat(written).hasSize(7);
		JsonNode gap = message(written.get(1)).get("params");
		assertThat(method(written.get(1))).isEqualTo(EventsWire.ACTIVE);
		assertThat(gap.get("truncated").booleanValue()).isTrue();
		assertThat(gap.get("cursor").stringValue()).isEqualTo(new EventsWire.Cursor(this.log.epoch(), 3).encode());
		assertThat(written.subList(2, 7))
			.extracting((line) -> message(line).get("params").get("data").get("number").intValue())
			.containsExactly(4, 5, 6, 7, 8);
		raise(9);
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(message(stream.written().get(7)).get("params").get("data").get("number").intValue()).isEqualTo(9);
	}

	@Test
	void aHeartbeatWaitsForTheClientAndCarriesThePositionReadUpTo() {
		EventStreams streams = streams(50);
		RecordingStream stream = new RecordingStream();
		McpStreamedMethod.Call call = streams.open(request(null), new McpStreamedMethod.Caller(null, "a", null));
		call.start(stream);
		this.log.append(this.types.get("test.alert.raised"), new AlertRaised(1, "low"),
				this.codec.createObjectNode().put("number", 1));
		this.scheduler.advance(Duration.ofMillis(100));
		stream.holdWrites();
		call.heartbeat();
		assertThat(stream.written()).hasSize(2);
		stream.taken();
		JsonNode heartbeat = message(stream.written().get(2));
		assertThat(heartbeat.get("method").stringValue()).isEqualTo(EventsWire.HEARTBEAT);
		assertThat(heartbeat.get("params").get("cursor").stringValue())
			.isEqualTo(new EventsWire.Cursor(this.log.epoch(), 1).encode());
	}

	private void raise(int number) {
		AlertRaised event = new AlertRaised(number, "high");
		EventType type = this.types.typeOf(event);
		this.log.append(type, event, EventRecorder.payload(type, event, this.codec));
	}

	private JsonRpcRequest request(@Nullable String cursor) {
		ObjectNode params = this.codec.createObjectNode().put("name", "test.alert.raised");
		if (cursor != null) {
			params.put("cursor", cursor);
		}
		return new JsonRpcRequest(this.codec.toTree(1), EventsWire.STREAM, params);
	}

	private JsonNode message(String line) {
		return this.codec.parse(line.substring(line.indexOf("data=") + 5).getBytes(StandardCharsets.UTF_8));
	}

	private String method(String line) {
		return message(line).get("method").stringValue();
	}

}
