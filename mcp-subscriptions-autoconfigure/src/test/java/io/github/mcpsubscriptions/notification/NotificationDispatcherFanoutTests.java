package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import com.fasterxml.jackson.annotation.JsonValue;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.subscription.CoverageRules;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.subscription.SubscriptionIndex;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.RecordingStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a change fanned out to many subscribers costs the delivery executor (#29), and
 * that the cheaper fan-out still gives a subscriber without correlation one notification,
 * for its most specific subscription.
 */
class NotificationDispatcherFanoutTests {

	private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

	private static final Pattern PRODUCT = Pattern.compile("\"catalog://products/(\\d+)\"");

	private final MutableClock clock = new MutableClock(AT);

	private final InMemoryResourceChangeFeed feed = new InMemoryResourceChangeFeed();

	@Test
	void aFanOutHandsTheExecutorOneTaskPerLaneOfSubscribers() {
		CountingScheduler scheduler = new CountingScheduler();
		try (NotificationDispatcher dispatcher = dispatcher(scheduler, CorrelationMode.ALWAYS)) {
			List<RecordingStream> streams = subscribeToProducts(dispatcher, 300);
			scheduler.executed.set(0);

			this.feed.publish(new ResourceChange("catalog://products/7", Map.of(), AT));

			await().atMost(10, TimeUnit.SECONDS)
				.until(() -> streams.stream().allMatch((stream) -> stream.written().size() == 1));
			assertThat(scheduler.executed).as("one task per %d subscribers, not one each", DeliveryLane.SIZE)
				.hasValue(5);
		}
	}

	@Test
	void subscribersWhoComeTakeTheSeatsOfThoseWhoLeftSoLanesStayFull() {
		CountingScheduler scheduler = new CountingScheduler();
		try (NotificationDispatcher dispatcher = dispatcher(scheduler, CorrelationMode.ALWAYS)) {
			List<Subscriber> first = new ArrayList<>();
			for (int i = 0; i < 2 * DeliveryLane.SIZE; i++) {
				first.add(dispatcher.register("first" + i, null, false, Map.of()));
			}
			for (int i = 0; i < first.size(); i += 2) {
				dispatcher.unregister(first.get(i));
			}
			List<RecordingStream> streams = subscribeToProducts(dispatcher, DeliveryLane.SIZE);
			for (int i = 1; i < first.size(); i += 2) {
				dispatcher.subscribe(first.get(i), "catalog://products/{id}");
				RecordingStream stream = new RecordingStream();
				first.get(i).getOutbox().attach(stream);
				streams.add(stream);
			}
			scheduler.executed.set(0);

			this.feed.publish(new ResourceChange("catalog://products/7", Map.of(), AT));

			await().atMost(10, TimeUnit.SECONDS)
				.until(() -> streams.stream().allMatch((stream) -> stream.written().size() == 1));
			assertThat(scheduler.executed).as("two full lanes, not a third for the newcomers").hasValue(2);
		}
	}

	@Test
	void changesThatWaitForTheirLaneAreQueuedTogetherAndReachEveryStreamInOrder() {
		HoldingScheduler scheduler = new HoldingScheduler();
		try (NotificationDispatcher dispatcher = dispatcher(scheduler, CorrelationMode.ALWAYS)) {
			List<RecordingStream> streams = subscribeToProducts(dispatcher, 100);
			for (int i = 0; i < 3; i++) {
				this.feed.publish(new ResourceChange("catalog://products/" + i, Map.of(), AT));
			}
			await().atMost(10, TimeUnit.SECONDS).until(() -> dispatcher.getBacklog() == 0);
			assertThat(scheduler.held).as("one task per lane, however many changes wait for it").hasSize(2);

			scheduler.runHeld();

			assertThat(streams).allSatisfy((stream) -> {
				assertThat(stream.batches()).as("queued together, written with one flush").containsExactly(3);
				assertThat(products(stream)).containsExactly("0", "1", "2");
			});
		}
	}

	@Test
	void aLaneTurnHeldBackStandsForTheChangesThatComeMeanwhileAndWritesThemTogether() {
		HoldingScheduler scheduler = new HoldingScheduler();
		try (NotificationDispatcher dispatcher = dispatcher(scheduler, CorrelationMode.ALWAYS)) {
			List<RecordingStream> streams = subscribeToProducts(dispatcher, 10);
			this.feed.publish(new ResourceChange("catalog://products/0", Map.of(), AT));
			await().atMost(10, TimeUnit.SECONDS).until(() -> dispatcher.getBacklog() == 0);
			scheduler.holdingTurns = true;
			scheduler.runHeld();
			assertThat(scheduler.sinceLastTurn).as("a lane's first turn has none before it")
				.containsExactly(Long.MAX_VALUE);

			long beforeHandOver = System.nanoTime();
			this.feed.publish(new ResourceChange("catalog://products/1", Map.of(), AT));
			await().atMost(10, TimeUnit.SECONDS).until(() -> dispatcher.getBacklog() == 0);
			scheduler.runHeld();
			assertThat(scheduler.heldBack).hasSize(1);
			assertThat(scheduler.sinceLastTurn.get(1)).isNotNegative().isLessThan(Long.MAX_VALUE);
			assertThat(scheduler.sinceLastHandOver.get(1)).as("measured from the hand-over of the change")
				.isNotNegative()
				.isLessThanOrEqualTo(System.nanoTime() - beforeHandOver);
			assertThat(dispatcher.getStats().getHeldBack()).isOne();
			this.feed.publish(new ResourceChange("catalog://products/2", Map.of(), AT));
			await().atMost(10, TimeUnit.SECONDS).until(() -> dispatcher.getBacklog() == 0);
			assertThat(scheduler.held).as("the held turn is still the lane's: no second task").isEmpty();
			assertThat(streams).allSatisfy((stream) -> assertThat(products(stream)).containsExactly("0"));

			scheduler.holdingTurns = false;
			scheduler.heldBack.poll().run();

			assertThat(streams).allSatisfy((stream) -> {
				assertThat(products(stream)).containsExactly("0", "1", "2");
				assertThat(stream.batches()).as("what came meanwhile shares one write").containsExactly(1, 2);
			});
		}
	}

	@Test
	void aLaneTakesEverythingThatWaitsForItSoTheOutboxBoundsIt() {
		HoldingScheduler scheduler = new HoldingScheduler();
		try (NotificationDispatcher dispatcher = dispatcher(scheduler, CorrelationMode.ALWAYS)) {
			RecordingStream stream = subscribeToProducts(dispatcher, 1).get(0);
			Subscriber subscriber = dispatcher.getSubscribers().iterator().next();
			// More than one batch, within the outbox's capacity of 100.
			int changes = WriteBatch.DEFAULT.maxNotifications() + 32;
			for (int i = 0; i < changes; i++) {
				this.feed.publish(new ResourceChange("catalog://products/" + i, Map.of(), AT));
			}
			await().atMost(10, TimeUnit.SECONDS).until(() -> dispatcher.getBacklog() == 0);
			assertThat(scheduler.held).hasSize(1);

			scheduler.held.poll().run();

			assertThat(stream.written().size() + subscriber.getOutbox().size())
				.as("every change that waited reached the outbox in one task of the lane")
				.isEqualTo(changes);
		}
	}

	@Test
	void aNotificationDecidedBeforeItsSubscriptionEndedIsNotQueuedAfter() {
		HoldingScheduler scheduler = new HoldingScheduler();
		try (NotificationDispatcher dispatcher = dispatcher(scheduler, CorrelationMode.ALWAYS)) {
			Subscriber leaving = dispatcher.register("leaving", null, false, Map.of());
			Subscriber staying = dispatcher.register("staying", null, false, Map.of());
			RecordingStream leavingStream = new RecordingStream();
			RecordingStream stayingStream = new RecordingStream();
			dispatcher.subscribe(leaving, "catalog://products/{id}");
			dispatcher.subscribe(staying, "catalog://products/{id}");
			dispatcher.subscribe(staying, "catalog://orders");
			leaving.getOutbox().attach(leavingStream);
			staying.getOutbox().attach(stayingStream);

			this.feed.publish(new ResourceChange("catalog://products/7", Map.of(), AT));
			await().atMost(10, TimeUnit.SECONDS).until(() -> scheduler.held.size() == 1);
			dispatcher.unsubscribe(leaving, "catalog://products/{id}");
			// Another subscription ended: this one is still told.
			dispatcher.unsubscribe(staying, "catalog://orders");
			scheduler.runHeld();

			assertThat(leavingStream.written()).as("unsubscribed after the change was fanned out").isEmpty();
			assertThat(products(stayingStream)).containsExactly("7");
		}
	}

	@Test
	void aDrainThatThrowsLeavesTheOtherDrainsOfItsLaneToRun() {
		HoldingScheduler scheduler = new HoldingScheduler();
		try (NotificationDispatcher dispatcher = dispatcher(scheduler, CorrelationMode.ALWAYS)) {
			List<String> written = new CopyOnWriteArrayList<>();
			for (int i = 0; i < 3; i++) {
				boolean failing = i == 1;
				Subscriber subscriber = dispatcher.register("s" + i, null, false, Map.of(),
						(created) -> (stream, n) -> {
							if (failing) {
								throw new AssertionError("a bug in a writer");
							}
							written.add(created.getId());
						});
				dispatcher.subscribe(subscriber, "catalog://products/{id}");
				subscriber.getOutbox().attach(new RecordingStream());
			}

			this.feed.publish(new ResourceChange("catalog://products/7", Map.of(), AT));
			await().atMost(10, TimeUnit.SECONDS).until(() -> scheduler.held.size() == 1);

			assertThatExceptionOfType(AssertionError.class).isThrownBy(scheduler::runHeld)
				.withMessage("a bug in a writer");
			assertThat(written).containsExactlyInAnyOrder("s0", "s2");
		}
	}

	@Test
	void everyStreamGetsItsNotificationsInOrderWhileLanesRunOnSeveralThreads() {
		try (ExecutorDeliveryScheduler delivery = new ExecutorDeliveryScheduler(4, 4, Duration.ofMinutes(1));
				NotificationDispatcher dispatcher = dispatcher(delivery, CorrelationMode.ALWAYS)) {
			List<RecordingStream> streams = subscribeToProducts(dispatcher, 3 * DeliveryLane.SIZE);
			// Fewer than the outbox's capacity of 100: a burst never overflows it.
			int changes = 90;
			for (int i = 0; i < changes; i++) {
				this.feed.publish(new ResourceChange("catalog://products/" + i, Map.of(), AT));
			}

			await().atMost(30, TimeUnit.SECONDS)
				.until(() -> streams.stream().allMatch((stream) -> stream.written().size() == changes));
			List<String> expected = IntStream.range(0, changes).mapToObj(Integer::toString).toList();
			assertThat(streams)
				.allSatisfy((stream) -> assertThat(products(stream)).containsExactlyElementsOf(expected));
		}
	}

	@Test
	void aSubscriberWithoutCorrelationGetsOneNotificationForItsMostSpecificSubscription() {
		try (NotificationDispatcher dispatcher = dispatcher(new CountingScheduler(), CorrelationMode.NEVER)) {
			List<List<String>> delivered = new ArrayList<>();
			List<List<String>> subscribed = new ArrayList<>();
			// Subscribers follow one another in the index, each with its own set of
			// subscriptions that all cover the change, in different orders.
			for (int i = 0; i < 30; i++) {
				List<String> received = new CopyOnWriteArrayList<>();
				Subscriber subscriber = dispatcher.register("s" + i, null, false, Map.of(),
						(created) -> (stream, n) -> received.add(n.uri() + " " + n.subscribedUri()));
				List<String> uris = new ArrayList<>();
				if (i % 3 == 0) {
					uris.add("catalog://products/{id}");
				}
				uris.add("catalog://products");
				if (i % 2 == 0) {
					uris.add("catalog://products/7");
				}
				uris.forEach((uri) -> dispatcher.subscribe(subscriber, uri));
				subscriber.getOutbox().attach(new RecordingStream());
				delivered.add(received);
				subscribed.add(uris);
			}

			this.feed.publish(new ResourceChange("catalog://products/7", Map.of(), AT));
			this.feed.publish(new ResourceChange("catalog://products/8", Map.of(), AT));

			await().atMost(10, TimeUnit.SECONDS).until(() -> delivered.stream().allMatch((r) -> r.size() == 2));
			for (int i = 0; i < 30; i++) {
				assertThat(delivered.get(i)).as("subscriber %d", i)
					.containsExactly("catalog://products/7 " + mostSpecific("catalog://products/7", subscribed.get(i)),
							"catalog://products/8 " + mostSpecific("catalog://products/8", subscribed.get(i)));
			}
			assertThat(delivered.get(0)).containsExactly("catalog://products/7 catalog://products/7",
					"catalog://products/8 catalog://products/{id}");
		}
	}

	@Test
	void aChangeCoveredByOneSubscribedUriTellsEachOfItsSubscribersOnceWhateverElseTheySubscribed() {
		try (NotificationDispatcher dispatcher = dispatcher(new CountingScheduler(), CorrelationMode.NEVER)) {
			List<List<String>> delivered = new ArrayList<>();
			List<List<String>> ordersSubscribed = new ArrayList<>();
			for (int i = 0; i < 30; i++) {
				List<String> received = new CopyOnWriteArrayList<>();
				Subscriber subscriber = dispatcher.register("s" + i, null, false, Map.of(),
						(created) -> (stream, n) -> received.add(n.uri() + " " + n.subscribedUri()));
				List<String> orders = new ArrayList<>();
				if (i % 3 == 0) {
					orders.add("catalog://orders/{id}");
				}
				if (i % 2 == 0) {
					orders.add("catalog://orders");
				}
				dispatcher.subscribe(subscriber, "catalog://products/{id}");
				orders.forEach((uri) -> dispatcher.subscribe(subscriber, uri));
				subscriber.getOutbox().attach(new RecordingStream());
				delivered.add(received);
				ordersSubscribed.add(orders);
			}

			this.feed.publish(new ResourceChange("catalog://products/7", Map.of(), AT));
			this.feed.publish(new ResourceChange("catalog://orders/3", Map.of(), AT));

			// The scheduler runs every lane at once: all is delivered when the backlog is
			// 0.
			await().atMost(10, TimeUnit.SECONDS).until(() -> dispatcher.getBacklog() == 0);
			for (int i = 0; i < 30; i++) {
				List<String> orders = ordersSubscribed.get(i);
				List<String> expected = new ArrayList<>(List.of("catalog://products/7 catalog://products/{id}"));
				if (!orders.isEmpty()) {
					expected.add("catalog://orders/3 " + mostSpecific("catalog://orders/3", orders));
				}
				assertThat(delivered.get(i)).as("subscriber %d", i).containsExactlyElementsOf(expected);
			}
		}
	}

	@Test
	void aSubscriberWithoutCorrelationIsToldOnceEvenWhileASecondSubscriptionIsBeingAdded() {
		try (NotificationDispatcher dispatcher = dispatcher(new CountingScheduler(), CorrelationMode.NEVER)) {
			List<String> received = new CopyOnWriteArrayList<>();
			Subscriber subscriber = dispatcher.register("s", null, false, Map.of(),
					(created) -> (stream, n) -> received.add(n.uri() + " " + n.subscribedUri()));
			dispatcher.subscribe(subscriber, "catalog://products/{id}");
			// In the index, not counted yet: how a fan-out sees a subscription that
			// another
			// thread is adding.
			dispatcher.getIndex().add(subscriber, "catalog://products/7");
			subscriber.getOutbox().attach(new RecordingStream());

			this.feed.publish(new ResourceChange("catalog://products/7", Map.of(), AT));
			this.feed.publish(new ResourceChange("catalog://products/8", Map.of(), AT));

			await().atMost(10, TimeUnit.SECONDS).until(() -> received.size() >= 2);
			assertThat(received.get(0)).as("one notification of the first change").startsWith("catalog://products/7 ");
			assertThat(received.get(1)).isEqualTo("catalog://products/8 catalog://products/{id}");
		}
	}

	@Test
	void aChangeIsEncodedOnTheDispatchersThreadAndASubscribersOwnEntriesWhenItRegisters() {
		Witness attribute = new Witness("changed");
		Witness subscriptionId = new Witness("sub-1");
		try (ExecutorDeliveryScheduler delivery = new ExecutorDeliveryScheduler(2);
				NotificationDispatcher dispatcher = dispatcher(delivery, CorrelationMode.ALWAYS)) {
			List<RecordingStream> streams = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				// Half in each era: without entries of their own, and with a subscription
				// id.
				Map<String, Object> meta = (i % 2 == 0) ? Map.of() : Map.of("subscriptionId", subscriptionId);
				Subscriber subscriber = dispatcher.register("s" + i, null, false, meta);
				dispatcher.subscribe(subscriber, "catalog://products/{id}");
				RecordingStream stream = new RecordingStream();
				subscriber.getOutbox().attach(stream);
				streams.add(stream);
			}
			assertThat(subscriptionId.threads).as("encoded once per subscriber, as it registers")
				.containsOnly(Thread.currentThread().getName())
				.hasSize(3);

			this.feed.publish(new ResourceChange("catalog://products/7", Map.of("witness", attribute), AT));

			await().atMost(10, TimeUnit.SECONDS)
				.until(() -> streams.stream().allMatch((stream) -> stream.written().size() == 1));
			assertThat(streams).allSatisfy((stream) -> assertThat(stream.written().get(0)).contains("\"changed\""));
			assertThat(streams.get(1).written().get(0)).contains("\"sub-1\"");
			assertThat(attribute.threads)
				.as("once for the subscribers without entries of their own, once for those with, "
						+ "on the dispatcher's thread: never on a delivery thread")
				.hasSize(2)
				.allSatisfy((thread) -> assertThat(thread).startsWith("mcp-dispatch"));
			assertThat(subscriptionId.threads).hasSize(3);
		}
	}

	@Test
	void aChangeThatCannotBeEncodedIsTriedOnceOnTheDispatchersThreadAndTheNextOneIsDelivered() {
		Witness failing = new Witness(null);
		try (ExecutorDeliveryScheduler delivery = new ExecutorDeliveryScheduler(2);
				NotificationDispatcher dispatcher = dispatcher(delivery, CorrelationMode.ALWAYS)) {
			List<RecordingStream> streams = subscribeToProducts(dispatcher, 5);

			this.feed.publish(new ResourceChange("catalog://products/7", Map.of("witness", failing), AT));
			this.feed.publish(new ResourceChange("catalog://products/8", Map.of(), AT));

			await().atMost(10, TimeUnit.SECONDS)
				.until(() -> streams.stream().allMatch((stream) -> stream.written().size() == 1));
			assertThat(streams)
				.allSatisfy((stream) -> assertThat(stream.written().get(0)).contains("catalog://products/8"));
			assertThat(failing.threads.stream().filter((thread) -> thread.startsWith("mcp-dispatch")))
				.as("not once per subscriber on the dispatcher's thread")
				.hasSize(1);
		}
	}

	/**
	 * A value whose JSON is its text, which tells on which threads it was written;
	 * without a text, writing it fails.
	 */
	public static final class Witness {

		final List<String> threads = new CopyOnWriteArrayList<>();

		private final @Nullable String text;

		Witness(@Nullable String text) {
			this.text = text;
		}

		@JsonValue
		public String text() {
			this.threads.add(Thread.currentThread().getName());
			if (this.text == null) {
				throw new IllegalStateException("cannot be written");
			}
			return this.text;
		}

	}

	/** Subscribers of every product, without entries of their own, each with a stream. */
	private static List<RecordingStream> subscribeToProducts(NotificationDispatcher dispatcher, int count) {
		List<RecordingStream> streams = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			Subscriber subscriber = dispatcher.register("s" + i, null, false, Map.of());
			dispatcher.subscribe(subscriber, "catalog://products/{id}");
			RecordingStream stream = new RecordingStream();
			subscriber.getOutbox().attach(stream);
			streams.add(stream);
		}
		return streams;
	}

	/** The products a stream was told of, in order. */
	private static List<String> products(RecordingStream stream) {
		return stream.written().stream().map((line) -> {
			Matcher product = PRODUCT.matcher(line);
			assertThat(product.find()).as(line).isTrue();
			return product.group(1);
		}).toList();
	}

	private static String mostSpecific(String changed, List<String> subscriptions) {
		String best = null;
		for (String uri : subscriptions) {
			if (CoverageRules.covers(uri, changed)) {
				best = (best != null) ? CoverageRules.moreSpecific(changed, best, uri) : uri;
			}
		}
		return best;
	}

	private NotificationDispatcher dispatcher(DeliveryScheduler scheduler, CorrelationMode correlation) {
		return new NotificationDispatcher(this.feed, new SubscriptionIndex<>(), ResourceAccessPolicy.PERMIT_ALL,
				List.of(), new NotificationEncoder(new JsonRpcCodec(), correlation), scheduler, this.clock, 100,
				(uri) -> Duration.ZERO);
	}

	/**
	 * Holds every task until the test runs them, on its own thread; while told to, holds
	 * back every turn of a lane but its first.
	 */
	private static final class HoldingScheduler implements DeliveryScheduler {

		final Queue<Runnable> held = new ConcurrentLinkedQueue<>();

		final Queue<Runnable> heldBack = new ConcurrentLinkedQueue<>();

		final List<Long> sinceLastTurn = new ArrayList<>();

		final List<Long> sinceLastHandOver = new ArrayList<>();

		volatile boolean holdingTurns;

		@Override
		public boolean holdBack(Runnable task, long sinceLastTurnNanos, long sinceLastHandOverNanos) {
			if (!this.holdingTurns) {
				return false;
			}
			this.sinceLastTurn.add(sinceLastTurnNanos);
			this.sinceLastHandOver.add(sinceLastHandOverNanos);
			if (sinceLastTurnNanos == Long.MAX_VALUE) {
				return false;
			}
			this.heldBack.add(task);
			return true;
		}

		@Override
		public void execute(Runnable task) {
			this.held.add(task);
		}

		@Override
		public void schedule(Runnable task, Duration delay) {
			this.held.add(task);
		}

		/** Run what is held, and what that hands over, until nothing is. */
		void runHeld() {
			Runnable task;
			while ((task = this.held.poll()) != null) {
				task.run();
			}
		}

	}

	/** Runs every task on one thread of its own, in order, and counts them. */
	private static final class CountingScheduler implements DeliveryScheduler {

		final AtomicInteger executed = new AtomicInteger();

		private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();

		@Override
		public void execute(Runnable task) {
			this.executed.incrementAndGet();
			task.run();
		}

		@Override
		public void schedule(Runnable task, Duration delay) {
			this.tasks.add(task);
		}

	}

}
