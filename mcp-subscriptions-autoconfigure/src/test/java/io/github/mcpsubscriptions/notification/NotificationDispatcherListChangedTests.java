package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.RecordingStream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A resource that {@code resources/list} names came or went: whoever wrote the change
 * (the application, a mapped entity, the database capture), list listeners hear that the
 * list changed, after the change itself.
 */
class NotificationDispatcherListChangedTests {

	private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

	private final InMemoryResourceChangeFeed feed = new InMemoryResourceChangeFeed();

	@Test
	void aListedResourceCreatedOrDeletedTellsListListenersThatTheListChanged() {
		try (NotificationDispatcher dispatcher = dispatcher()) {
			dispatcher.setListedResources((uri) -> uri.startsWith("catalog://products/"));
			List<String> listener = subscriber(dispatcher, true);
			List<String> notListening = subscriber(dispatcher, false);

			publish("catalog://products/1", "updated");
			publish("files://notes/a.txt", ResourceChange.CREATED);
			publish("catalog://products/2", ResourceChange.CREATED);
			publish("catalog://products/2", ResourceChange.DELETED);
			publish("catalog://products/3", null);

			await().atMost(10, TimeUnit.SECONDS).until(() -> listener.size() >= 7 && notListening.size() >= 5);
			assertThat(listener).containsExactly("updated catalog://products/1", "updated files://notes/a.txt",
					"updated catalog://products/2", OutboundNotification.LIST_CHANGED, "updated catalog://products/2",
					OutboundNotification.LIST_CHANGED, "updated catalog://products/3");
			assertThat(notListening).containsExactly("updated catalog://products/1", "updated files://notes/a.txt",
					"updated catalog://products/2", "updated catalog://products/2", "updated catalog://products/3");
		}
	}

	@Test
	void withoutListedResourcesOnlyTheChangeIsSent() {
		try (NotificationDispatcher dispatcher = dispatcher()) {
			List<String> listener = subscriber(dispatcher, true);

			publish("catalog://products/2", ResourceChange.CREATED);
			dispatcher.resourceListChanged();

			await().atMost(10, TimeUnit.SECONDS).until(() -> listener.size() >= 2);
			assertThat(listener).containsExactly("updated catalog://products/2", OutboundNotification.LIST_CHANGED);
		}
	}

	private void publish(String uri, String change) {
		this.feed
			.publish(new ResourceChange(uri, (change != null) ? Map.of(ResourceChange.CHANGE, change) : Map.of(), AT));
	}

	private static List<String> subscriber(NotificationDispatcher dispatcher, boolean listChanges) {
		List<String> received = new CopyOnWriteArrayList<>();
		Subscriber subscriber = dispatcher.register("s" + listChanges, null, listChanges, Map.of(),
				(created) -> (stream, n) -> received
					.add(n.method().equals(OutboundNotification.LIST_CHANGED) ? n.method() : "updated " + n.uri()));
		dispatcher.subscribe(subscriber, "catalog://products/{id}");
		dispatcher.subscribe(subscriber, "files://notes/{name}");
		subscriber.getOutbox().attach(new RecordingStream());
		return received;
	}

	private NotificationDispatcher dispatcher() {
		return new NotificationDispatcher(this.feed, new SubscriptionIndex<>(), ResourceAccessPolicy.PERMIT_ALL,
				List.of(), new NotificationEncoder(new JsonRpcCodec(), CorrelationMode.ALWAYS), new InlineScheduler(),
				new MutableClock(AT), 100, (uri) -> Duration.ZERO);
	}

	/** Runs each drain at once, so that nothing waits long enough to be coalesced. */
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
