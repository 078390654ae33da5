package io.github.mcpsubscriptions.notification;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import io.github.mcpsubscriptions.test.ManualDeliveryScheduler;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.RecordingStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A change fanned out to many subscribers asks the access policy once per subscription
 * and principal, and still denies every subscriber the policy denies.
 */
class NotificationDispatcherAccessTests {

	private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

	@Test
	void thePolicyIsAskedOncePerSubscriptionAndPrincipalOfAChange() {
		Principal alice = () -> "alice";
		Principal mallory = () -> "mallory";
		AtomicInteger asked = new AtomicInteger();
		ResourceAccessPolicy policy = new ResourceAccessPolicy() {

			@Override
			public boolean canReceive(@Nullable Principal principal, String changedUri, String subscribedUri) {
				asked.incrementAndGet();
				return principal != mallory;
			}

		};
		MutableClock clock = new MutableClock(AT);
		InMemoryResourceChangeFeed feed = new InMemoryResourceChangeFeed();
		NotificationEncoder encoder = new NotificationEncoder(new JsonRpcCodec(), CorrelationMode.ALWAYS);
		try (NotificationDispatcher dispatcher = new NotificationDispatcher(feed, new SubscriptionIndex<>(), policy,
				List.of(), encoder, new ManualDeliveryScheduler(clock), clock, 10, (uri) -> Duration.ZERO)) {
			List<String> delivered = new CopyOnWriteArrayList<>();
			for (int i = 0; i < 300; i++) {
				Principal principal = switch (i % 3) {
					case 0 -> alice;
					case 1 -> mallory;
					default -> null;
				};
				String uri = (i % 2 == 0) ? "catalog://products" : "catalog://products/{id}";
				Subscriber subscriber = dispatcher.register("s" + i, principal, false, Map.of(),
						(created) -> (stream, n) -> delivered.add(created.getId() + " " + n.subscribedUri()));
				dispatcher.subscribe(subscriber, uri);
				subscriber.getOutbox().attach(new RecordingStream());
			}

			feed.publish(new ResourceChange("catalog://products/7", Map.of(), AT));

			await().atMost(10, TimeUnit.SECONDS).until(() -> delivered.size() == 200);
			assertThat(asked).as("two subscriptions times three principals").hasValue(6);
			assertThat(dispatcher.getStats().getDenied()).as("every one of mallory's subscribers").isEqualTo(100);
			assertThat(delivered).noneMatch((line) -> {
				int index = Integer.parseInt(line.substring(1, line.indexOf(' ')));
				return index % 3 == 1;
			});
		}
	}

}
