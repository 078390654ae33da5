package io.github.mcpsubscriptions.notification;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.test.RecordingStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The facade's writer chain, built once when a subscriber registers: a notification goes
 * from the outbox through the resync expansion and the encoder to the subscriber's event
 * log, which alone writes to the stream; nothing on the way calls back into the engine.
 */
class NotificationEngineTests {

	private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

	private final InMemoryResourceChangeFeed feed = new InMemoryResourceChangeFeed();

	private final ResourceRegistry resources = new ResourceRegistry();

	@Test
	void aNotificationRunsThroughTheEventLogGivenAtRegistrationToTheStream() {
		try (NotificationEngine engine = engine()) {
			RecordingEventLog log = new RecordingEventLog();
			Subscriber subscriber = engine.register("s", null, false, Map.of(), log);
			engine.subscribe(subscriber, "catalog://products/{id}");
			RecordingStream stream = new RecordingStream();
			engine.attach(subscriber, stream, null);

			this.feed.publish(new ResourceChange("catalog://products/1", Map.of(), AT, "17-0"));

			await().atMost(10, TimeUnit.SECONDS).until(() -> stream.written().size() == 1);
			assertThat(log.positions).containsExactly("17-0");
			assertThat(log.messages).singleElement()
				.satisfies((message) -> assertThat(message).contains("\"uri\":\"catalog://products/1\""));
			// The event log named it and wrote it: the stream has nothing it did not get.
			assertThat(stream.written()).containsExactly("id=e1 data=" + log.messages.get(0));
		}
	}

	@Test
	void aResyncAnAttachActionQueuesIsExpandedEncodedAndWrittenByTheSameChain() {
		this.resources.register(ResourceDefinition.builder("catalog://products/{id}", (request) -> "one").build());
		this.resources.register(ResourceDefinition.builder("catalog://products", (request) -> "all").build());
		try (NotificationEngine engine = engine()) {
			RecordingEventLog log = new RecordingEventLog();
			Subscriber subscriber = engine.register("s", null, false, Map.of(), log);
			engine.subscribe(subscriber, "catalog://products/{id}");
			RecordingStream stream = new RecordingStream();
			engine.attach(subscriber, stream, (target, attachment) -> {
				target.send(null, "ack");
				attachment.queueResync();
			});

			await().atMost(10, TimeUnit.SECONDS).until(() -> stream.written().size() == 2);
			assertThat(stream.written().get(0)).isEqualTo("id=null data=ack");
			// The template is not readable: the resync names the collection that stands
			// for it, as ResyncTargets chooses on the delivery thread.
			assertThat(log.messages).singleElement()
				.satisfies((message) -> assertThat(message).contains("\"uri\":\"catalog://products\"")
					.contains(NotificationEngine.RESYNC_META));
			assertThat(log.positions).containsExactly((String) null);
		}
	}

	@Test
	void aListenStreamsChainWritesPlainEventsWithItsOwnMeta() {
		try (NotificationEngine engine = engine()) {
			Subscriber subscriber = engine.register("l", null, false, Map.of("subscriptionId", 7));
			engine.subscribe(subscriber, "catalog://products/{id}");
			RecordingStream stream = new RecordingStream();
			engine.attach(subscriber, stream, null);

			this.feed.publish(new ResourceChange("catalog://products/2", Map.of(), AT));

			await().atMost(10, TimeUnit.SECONDS).until(() -> stream.written().size() == 1);
			assertThat(stream.written().get(0)).startsWith("id=null data=")
				.contains("\"uri\":\"catalog://products/2\"")
				.contains("\"subscriptionId\":7");
			assertThat(engine.getStats().getSent()).isOne();
		}
	}

	private NotificationEngine engine() {
		return NotificationEngine
			.builder(this.feed, ResourceAccessPolicy.PERMIT_ALL, new JsonRpcCodec(), new InlineScheduler())
			.correlation(CorrelationMode.ALWAYS)
			.resources(this.resources)
			.build();
	}

	/** Names each message {@code e<n>}, records it, and writes it. */
	private static final class RecordingEventLog implements EventLog {

		final List<@Nullable String> positions = new CopyOnWriteArrayList<>();

		final List<String> messages = new CopyOnWriteArrayList<>();

		@Override
		public void send(MessageStream stream, @Nullable String position, EncodedMessage message) throws IOException {
			this.positions.add(position);
			this.messages.add(message.text());
			stream.send("e" + this.messages.size(), message);
		}

	}

	/** Runs each task at once, on the thread that hands it over. */
	private static final class InlineScheduler implements DeliveryScheduler {

		@Override
		public void execute(Runnable task) {
			task.run();
		}

		@Override
		public void schedule(Runnable task, Duration delay) {
			throw new IllegalStateException("nothing is delayed here");
		}

	}

}
