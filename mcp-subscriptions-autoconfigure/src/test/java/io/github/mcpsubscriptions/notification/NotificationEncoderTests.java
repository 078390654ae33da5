package io.github.mcpsubscriptions.notification;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import io.github.mcpsubscriptions.test.ManualDeliveryScheduler;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.RecordingStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A notification is encoded once and shared; what each subscriber gets must be, byte for
 * byte, what encoding it for that subscriber alone writes, in both eras and every
 * variant.
 */
class NotificationEncoderTests {

	private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

	private static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

	private final JsonRpcCodec codec = new JsonRpcCodec();

	@Test
	void sharedEncodingEqualsEncodingPerSubscriberInEveryVariant() {
		int compared = 0;
		for (CorrelationMode mode : CorrelationMode.values()) {
			NotificationEncoder encoder = new NotificationEncoder(this.codec, mode);
			for (int order = 0; order < 2; order++) {
				for (NotificationFactory factory : notifications()) {
					// One instance shared by every subscriber (as the dispatcher queues
					// it), in
					// both orders: the first subscriber of either era builds the shared
					// text.
					OutboundNotification shared = factory.create();
					List<Subscriber> subscribers = subscribers();
					if (order == 1) {
						Collections.reverse(subscribers);
					}
					for (Subscriber subscriber : subscribers) {
						String expected = encoder.encodeFully(factory.create(), subscriber);
						assertThat(encoder.encode(shared, subscriber))
							.as("%s, %s, %s", mode, shared, subscriber.getMeta())
							.isEqualTo(expected);
						assertThat(encoder.encode(factory.create(), subscriber)).isEqualTo(expected);
						compared++;
					}
				}
			}
		}
		assertThat(compared).isEqualTo(3 * 2 * notifications().size() * subscribers().size());
	}

	@Test
	void theTextIsBuiltOnceForSubscribersWithoutOwnEntries() {
		NotificationEncoder encoder = new NotificationEncoder(this.codec, CorrelationMode.ALWAYS);
		OutboundNotification shared = updated(Map.of("change", "updated"));
		String first = encoder.encode(shared, subscriber(Map.of()));
		String second = encoder.encode(shared, subscriber(Map.of()));
		assertThat(second).isSameAs(first);
	}

	@Test
	void anotherEncoderDoesNotReuseTheText() {
		OutboundNotification shared = updated(Map.of());
		String correlated = new NotificationEncoder(this.codec, CorrelationMode.ALWAYS).encode(shared,
				subscriber(Map.of()));
		String uncorrelated = new NotificationEncoder(this.codec, CorrelationMode.NEVER).encode(shared,
				subscriber(Map.of()));
		assertThat(correlated).contains("subscribedUri");
		assertThat(uncorrelated).doesNotContain("subscribedUri");
	}

	@Test
	void subscribersOfOneUriGetOneSharedNotificationPerChange() {
		MutableClock clock = new MutableClock(AT);
		InMemoryResourceChangeFeed feed = new InMemoryResourceChangeFeed();
		NotificationEncoder encoder = new NotificationEncoder(this.codec, CorrelationMode.ALWAYS);
		try (NotificationDispatcher dispatcher = new NotificationDispatcher(feed, new SubscriptionIndex<>(),
				ResourceAccessPolicy.PERMIT_ALL, List.of(), encoder, new ManualDeliveryScheduler(clock), clock, 10,
				(uri) -> Duration.ZERO)) {
			List<OutboundNotification> queued = new CopyOnWriteArrayList<>();
			List<String> written = new CopyOnWriteArrayList<>();
			List<Subscriber> subscribers = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				Map<String, Object> meta = (i == 0) ? Map.of() : Map.of(SUBSCRIPTION_ID, "listen-" + i);
				Subscriber subscriber = dispatcher.register("s" + i, null, false, meta, (created) -> (stream, n) -> {
					queued.add(n);
					written.add(encoder.encode(n, created));
				});
				dispatcher.subscribe(subscriber, "catalog://products");
				subscriber.getOutbox().attach(new RecordingStream());
				subscribers.add(subscriber);
			}
			Subscriber other = dispatcher.register("other", null, false, Map.of(), (created) -> (stream, n) -> {
				queued.add(n);
				written.add(encoder.encode(n, created));
			});
			dispatcher.subscribe(other, "catalog://products/7");
			other.getOutbox().attach(new RecordingStream());

			feed.publish(new ResourceChange("catalog://products/7", Map.of("change", "updated"), AT));

			await().atMost(10, TimeUnit.SECONDS).until(() -> queued.size() == 4);
			List<OutboundNotification> ofCollection = queued.stream()
				.filter((n) -> "catalog://products".equals(n.subscribedUri()))
				.toList();
			assertThat(ofCollection).hasSize(3);
			assertThat(ofCollection).allSatisfy((n) -> assertThat(n).isSameAs(ofCollection.get(0)));
			assertThat(queued).filteredOn((n) -> "catalog://products/7".equals(n.subscribedUri()))
				.singleElement()
				.isNotSameAs(ofCollection.get(0));
			assertThat(written).contains(
					"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"catalog://products/7\",\"subscribedUri\":\"catalog://products\",\"_meta\":{\"change\":\"updated\"}}}",
					"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"catalog://products/7\",\"subscribedUri\":\"catalog://products\",\"_meta\":{\"change\":\"updated\",\"io.modelcontextprotocol/subscriptionId\":\"listen-1\"}}}",
					"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"catalog://products/7\",\"subscribedUri\":\"catalog://products\",\"_meta\":{\"change\":\"updated\",\"io.modelcontextprotocol/subscriptionId\":\"listen-2\"}}}");
		}
	}

	@Test
	void sharedBytesAreTheTextInUtf8InEveryVariant() {
		for (CorrelationMode mode : CorrelationMode.values()) {
			NotificationEncoder encoder = new NotificationEncoder(this.codec, mode);
			for (NotificationFactory factory : notifications()) {
				OutboundNotification shared = factory.create();
				for (Subscriber subscriber : subscribers()) {
					String expected = encoder.encodeFully(factory.create(), subscriber);
					EncodedMessage message = encoder.encodeMessage(shared, subscriber);
					byte[] bytes = new byte[message.length()];
					assertThat(message.copyTo(bytes, 0)).isEqualTo(bytes.length);
					assertThat(new String(bytes, StandardCharsets.UTF_8))
						.as("%s, %s, %s", mode, shared, subscriber.getMeta())
						.isEqualTo(expected);
					assertThat(message.text()).isEqualTo(expected);
					assertThat(message.isSingleLine()).isEqualTo(expected.indexOf('\n') < 0);
				}
			}
		}
	}

	@Test
	void threeHundredSubscribersOfOneUriShareTheBytesOfOneEncodingInBothEras() {
		// The bytes of a change are built once, not once per subscriber: converting the
		// same
		// text again for each of 8,000 streams cost more than writing it (#29).
		for (boolean ownEntries : new boolean[] { false, true }) {
			MutableClock clock = new MutableClock(AT);
			InMemoryResourceChangeFeed feed = new InMemoryResourceChangeFeed();
			NotificationEncoder encoder = new NotificationEncoder(this.codec, CorrelationMode.ALWAYS);
			try (NotificationDispatcher dispatcher = new NotificationDispatcher(feed, new SubscriptionIndex<>(),
					ResourceAccessPolicy.PERMIT_ALL, List.of(), encoder, new ManualDeliveryScheduler(clock), clock, 10,
					(uri) -> Duration.ZERO)) {
				List<EncodedMessage> sent = new CopyOnWriteArrayList<>();
				for (int i = 0; i < 300; i++) {
					Subscriber subscriber = dispatcher.register("s" + i, null, false,
							ownEntries ? Map.of(SUBSCRIPTION_ID, "listen-" + i) : Map.of());
					dispatcher.subscribe(subscriber, "catalog://products/{id}");
					subscriber.getOutbox().attach(new BytesStream(sent));
				}
				feed.publish(new ResourceChange("catalog://products/7", Map.of("change", "updated"), AT));
				await().atMost(10, TimeUnit.SECONDS).until(() -> sent.size() == 300);
				assertThat(sent).extracting(EncodedMessage::headBytes)
					.as("own entries: %s", ownEntries)
					.allSatisfy((bytes) -> assertThat(bytes).isSameAs(sent.get(0).headBytes()));
				if (!ownEntries) {
					assertThat(sent).allSatisfy((message) -> assertThat(message).isSameAs(sent.get(0)));
				}
				else {
					assertThat(sent).extracting(EncodedMessage::text)
						.contains(
								"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"catalog://products/7\",\"subscribedUri\":\"catalog://products/{id}\",\"_meta\":{\"change\":\"updated\",\"io.modelcontextprotocol/subscriptionId\":\"listen-299\"}}}");
				}
			}
		}
	}

	/** Keeps the messages as a stream that writes bytes gets them. */
	private static final class BytesStream implements MessageStream {

		private final List<EncodedMessage> sent;

		BytesStream(List<EncodedMessage> sent) {
			this.sent = sent;
		}

		@Override
		public void send(@Nullable String eventId, EncodedMessage data) {
			this.sent.add(data);
		}

		@Override
		public void send(@Nullable String eventId, String data) {
			throw new AssertionError("Converted to bytes per subscriber: " + data);
		}

		@Override
		public void prime(String eventId) {
		}

		@Override
		public void sendComment(String comment) {
		}

		@Override
		public boolean isOpen() {
			return true;
		}

		@Override
		public void close() {
		}

	}

	@FunctionalInterface
	private interface NotificationFactory {

		OutboundNotification create();

	}

	private static List<NotificationFactory> notifications() {
		Map<String, Object> nested = new LinkedHashMap<>();
		nested.put("change", "updated");
		nested.put("count", 3);
		nested.put("ratio", 0.5);
		nested.put("flag", false);
		nested.put("list", List.of(1, "two", Map.of("three", 3)));
		nested.put("text", "quote \" backslash \\ newline \n tab \t unicode é 漢 \uD83D\uDE00 control \u0001 }}} ,\"");
		return List.of(() -> updated(Map.of()), () -> updated(Map.of("change", "updated")), () -> updated(nested),
				() -> updated(Map.of(SUBSCRIPTION_ID, "from-the-application")),
				() -> updated(Map.of("io.github.mcpsubscriptions/splice", "an attribute of that name")),
				() -> OutboundNotification.resync("catalog://products/{id}", AT),
				() -> new OutboundNotification(OutboundNotification.RESOURCE_UPDATED, "a://x", null, Map.of("k", 1),
						false, AT),
				() -> new OutboundNotification(OutboundNotification.RESOURCE_UPDATED, "a://x", "a://", Map.of("k", 1),
						true, AT),
				() -> OutboundNotification.listChanged(AT));
	}

	private static List<Subscriber> subscribers() {
		JsonNodeFactory nodes = JsonNodeFactory.instance;
		Map<String, Object> two = new LinkedHashMap<>();
		two.put(SUBSCRIPTION_ID, nodes.textNode("listen-2"));
		two.put("x-extra", List.of("a", 1));
		List<Subscriber> subscribers = new ArrayList<>();
		subscribers.add(subscriber(Map.of()));
		subscribers.add(subscriber(Map.of(SUBSCRIPTION_ID, nodes.textNode("listen-1"))));
		subscribers.add(subscriber(Map.of(SUBSCRIPTION_ID, nodes.numberNode(42))));
		subscribers.add(subscriber(Map.of(SUBSCRIPTION_ID, nodes.textNode("a \"quoted\" é \uD83D\uDE00 id"))));
		subscribers.add(subscriber(Map.of(SUBSCRIPTION_ID, "plain string")));
		subscribers.add(subscriber(Map.of(NotificationEncoder.RESYNC_META, "own resync entry")));
		subscribers.add(subscriber(two));
		return subscribers;
	}

	private static Subscriber subscriber(Map<String, Object> meta) {
		return new Subscriber("test", null, true, meta);
	}

	private static OutboundNotification updated(Map<String, Object> attributes) {
		return OutboundNotification.updated(new ResourceChange("catalog://products/7", attributes, AT),
				"catalog://products/{id}");
	}

}
