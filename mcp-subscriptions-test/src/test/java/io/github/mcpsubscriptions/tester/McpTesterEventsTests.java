package io.github.mcpsubscriptions.tester;

import java.util.Map;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.tester.notes.NotesApplication;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationEventPublisher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The tester polls and streams event types of the Events extension in a line.
 */
@SpringBootTest(classes = NotesApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcp.events.enabled=true", "mcp.events.push.heartbeat-interval=200ms" })
@AutoConfigureMcpTester
class McpTesterEventsTests {

	@Autowired
	private McpTester mcp;

	@Autowired
	private ApplicationEventPublisher events;

	@Test
	void pollReturnsWhatArrivedSinceInOrderAndMovesOn() {
		McpEventPoll poll = this.mcp.pollEvents("resource.updated", Map.of("uri", "notes://items/{id}"));
		this.events.publishEvent(new ResourceChangedEvent("notes://items/1", Map.of("by", "test")));
		this.events.publishEvent(new ResourceChangedEvent("notes://other/2"));
		this.events.publishEvent(new ResourceChangedEvent("notes://items/3"));

		assertThat(poll.next()).extracting((data) -> data.get("uri").stringValue())
			.containsExactly("notes://items/1", "notes://items/3");
		assertThat(poll.wasTruncated()).isFalse();
		assertThat(poll.next()).as("nothing new").isEmpty();
		this.events.publishEvent(new ResourceChangedEvent("notes://items/4"));
		JsonNode only = poll.next().get(0);
		assertThat(only.get("subscribedUri").stringValue()).isEqualTo("notes://items/{id}");
	}

	@Test
	void aStreamDeliversWhatArrivesInOrderAndResumesFromItsCursor() {
		String cursor;
		try (McpEventStream stream = this.mcp.streamEvents("resource.updated", Map.of("uri", "notes://items"))) {
			this.events.publishEvent(new ResourceChangedEvent("notes://items/1"));
			this.events.publishEvent(new ResourceChangedEvent("notes://other/2"));
			this.events.publishEvent(new ResourceChangedEvent("notes://items/3"));
			assertThat(stream.next(2)).extracting((data) -> data.get("uri").stringValue())
				.containsExactly("notes://items/1", "notes://items/3");
			assertThat(stream.wasTruncated()).isFalse();
			cursor = stream.cursor();
		}
		this.events.publishEvent(new ResourceChangedEvent("notes://items/4"));
		try (McpEventStream resumed = this.mcp.streamEvents("resource.updated", Map.of("uri", "notes://items"),
				cursor)) {
			assertThat(resumed.next().get("uri").stringValue()).isEqualTo("notes://items/4");
		}
	}

	@Test
	void aStreamOfAnUnknownTypeIsTheServersError() {
		assertThatExceptionOfType(McpErrorException.class)
			.isThrownBy(() -> this.mcp.streamEvents("no.such.type", Map.of()))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(-32023));
	}

	@Test
	void anUnknownEventTypeIsTheServersError() {
		assertThatExceptionOfType(McpErrorException.class)
			.isThrownBy(() -> this.mcp.pollEvents("no.such.type", Map.of()));
	}

}
