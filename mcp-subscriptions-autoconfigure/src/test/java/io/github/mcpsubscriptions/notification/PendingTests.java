package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What waits to be sent, alone: no outbox, no stream, no thread, no scheduler; the time
 * is a number handed in.
 */
class PendingTests {

	private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

	private static final long SECOND = 1_000_000_000L;

	private final NotificationStats stats = new NotificationStats();

	private final List<String> subscriptions = new ArrayList<>(List.of("a://items/{id}"));

	private Pending pending(int capacity, int detachedCapacity, Duration minInterval) {
		return new Pending(capacity, detachedCapacity, new MinIntervals(minInterval, Map.of()), this.stats,
				() -> this.subscriptions);
	}

	private Pending pending(int capacity) {
		return pending(capacity, capacity, Duration.ZERO);
	}

	@Test
	void coalescingKeepsTheLastChangeInTheFirstOnesPlace() {
		Pending pending = pending(10);
		assertThat(pending.offer(change("a://items/1", 1), true)).isEqualTo(Pending.Offer.QUEUED);
		assertThat(pending.offer(change("a://items/2", 1), true)).isEqualTo(Pending.Offer.QUEUED);
		assertThat(pending.offer(change("a://items/1", 2), true)).isEqualTo(Pending.Offer.COALESCED);
		assertThat(pending.offer(change("a://items/1", 3), true)).isEqualTo(Pending.Offer.COALESCED);
		assertThat(drain(pending, 0)).containsExactly("a://items/1 3", "a://items/2 1");
		assertThat(this.stats.getCoalesced()).isEqualTo(2);
		assertThat(pending.isEmpty()).isTrue();
	}

	@Test
	void notificationsAreTakenInTheOrderTheyCame() {
		Pending pending = pending(100);
		List<String> expected = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			pending.offer(change("a://items/" + i, i), true);
			expected.add("a://items/" + i + " " + i);
		}
		assertThat(drain(pending, 0)).containsExactlyElementsOf(expected);
	}

	@Test
	void aWaitingResyncCoversLaterChangesOfItsSubscriptionOnly() {
		Pending pending = pending(10);
		pending.resync((subscribedUri) -> true, NOW);
		assertThat(pending.offer(change("a://items/1", 1), true)).isEqualTo(Pending.Offer.COALESCED);
		OutboundNotification other = new OutboundNotification(OutboundNotification.RESOURCE_UPDATED, "b://x", "b://x",
				Map.of(), false, NOW);
		assertThat(pending.offer(other, true)).isEqualTo(Pending.Offer.QUEUED);
		List<OutboundNotification> taken = takeAll(pending, 0);
		assertThat(taken).extracting(OutboundNotification::resync).containsExactly(true, false);
		assertThat(taken.get(0).subscribedUri()).isEqualTo("a://items/{id}");
		assertThat(this.stats.getResyncsQueued()).isOne();
		// Once the resync was taken, the subscription's changes wait again.
		assertThat(pending.offer(change("a://items/1", 2), true)).isEqualTo(Pending.Offer.QUEUED);
	}

	@Test
	void aRateLimitHoldsTheNextOfASubscriptionUntilItIsDueAndCountsItDelayedOnce() {
		Pending pending = pending(10, 10, Duration.ofSeconds(1));
		long start = 5 * SECOND;
		pending.offer(change("a://items/1", 1), true);
		assertThat(pending.pollDue(start)).isNotNull();
		assertThat(pending.nextDue()).isEqualTo(Pending.NOTHING_HELD);
		pending.offer(change("a://items/1", 2), true);
		pending.offer(change("a://items/1", 3), true);
		assertThat(pending.pollDue(start + SECOND / 2)).isNull();
		assertThat(pending.pollDue(start + SECOND - 1)).isNull();
		assertThat(this.stats.getDelayed()).isOne();
		assertThat(pending.nextDue()).isEqualTo(start + SECOND);
		OutboundNotification due = pending.pollDue(start + SECOND);
		assertThat(due).isNotNull();
		assertThat(due.attributes()).containsEntry("version", 3);
		assertThat(pending.isEmpty()).isTrue();
	}

	@Test
	void aRateLimitHoldsOnlyItsSubscriptionAndNeverAResync() {
		Pending pending = new Pending(10, 10, (uri) -> uri.equals("a://slow") ? Duration.ofSeconds(5) : Duration.ZERO,
				this.stats, () -> List.of("a://slow"));
		pending.offer(change("a://slow/1", "a://slow", 1), true);
		assertThat(pending.pollDue(0)).isNotNull();
		pending.offer(change("a://slow/2", "a://slow", 1), true);
		pending.offer(change("a://fast/1", "a://fast", 1), true);
		OutboundNotification fast = pending.pollDue(SECOND);
		assertThat(fast).isNotNull();
		assertThat(fast.uri()).isEqualTo("a://fast/1");
		assertThat(pending.pollDue(SECOND)).isNull();
		assertThat(pending.nextDue()).isEqualTo(5 * SECOND);
		// A resync of the held subscription covers the held change and is due at once.
		pending.resync((subscribedUri) -> true, NOW);
		assertThat(pending.offer(change("a://slow/3", "a://slow", 1), true)).isEqualTo(Pending.Offer.COALESCED);
		OutboundNotification resync = pending.pollDue(2 * SECOND);
		assertThat(resync).isNotNull();
		assertThat(resync.resync()).isTrue();
	}

	@Test
	void theTimeIsReadOnlyWhereAMinimumIntervalApplies() {
		Pending pending = new Pending(10, 10, (uri) -> uri.equals("a://slow") ? Duration.ofSeconds(5) : Duration.ZERO,
				this.stats, List::of);
		AtomicInteger reads = new AtomicInteger();
		pending.offer(change("a://fast/1", "a://fast", 1), true);
		assertThat(pending.pollDue(() -> reads.incrementAndGet())).isNotNull();
		assertThat(reads).hasValue(0);
		pending.offer(change("a://slow/1", "a://slow", 1), true);
		assertThat(pending.pollDue(() -> reads.incrementAndGet())).isNotNull();
		assertThat(reads).hasValue(1);
	}

	@Test
	void forgettingASubscriptionDropsWhatWaitsForItAndItsRateLimit() {
		Pending pending = new Pending(10, 10, (uri) -> Duration.ofSeconds(5), this.stats, List::of);
		pending.offer(change("a://items/1", "a://items/1", 1), true);
		assertThat(pending.pollDue(0)).isNotNull();
		pending.offer(change("a://items/1", "a://items/1", 2), true);
		pending.offer(change("a://items/2", "a://items/2", 1), true);
		pending.forget("a://items/1");
		assertThat(pending.size()).isOne();
		pending.offer(change("a://items/1", "a://items/1", 3), true);
		assertThat(takeAll(pending, SECOND)).extracting(OutboundNotification::uri)
			.containsExactly("a://items/2", "a://items/1");
	}

	@Test
	void aReadingStreamHoldsTheCapacityThenAnOfferIsRefused() {
		Pending pending = pending(3, 1, Duration.ZERO);
		for (int i = 0; i < 3; i++) {
			assertThat(pending.offer(change("a://items/" + i, 1), true)).isEqualTo(Pending.Offer.QUEUED);
		}
		assertThat(pending.offer(change("a://items/9", 1), true)).isEqualTo(Pending.Offer.FULL);
		assertThat(pending.size()).isEqualTo(3);
		// A change of one that waits still coalesces: it takes no room.
		assertThat(pending.offer(change("a://items/0", 2), true)).isEqualTo(Pending.Offer.COALESCED);
	}

	@Test
	void withoutAStreamTheSmallerBoundApplies() {
		Pending pending = pending(3, 1, Duration.ZERO);
		assertThat(pending.offer(change("a://items/0", 1), false)).isEqualTo(Pending.Offer.QUEUED);
		assertThat(pending.offer(change("a://items/1", 1), false)).isEqualTo(Pending.Offer.FULL);
		assertThat(pending.offer(change("a://items/1", 1), true)).isEqualTo(Pending.Offer.QUEUED);
	}

	@Test
	void anOverflowDropsWhatWaitsAndQueuesOneResyncPerActiveSubscription() {
		this.subscriptions.add("a://other");
		Pending pending = pending(3);
		for (int i = 0; i < 3; i++) {
			pending.offer(change("a://items/" + i, 1), true);
		}
		assertThat(pending.offer(change("a://items/9", 1), true)).isEqualTo(Pending.Offer.FULL);
		pending.overflow(NOW);
		assertThat(this.stats.getOverflows()).isOne();
		assertThat(this.stats.getDroppedOnOverflow()).isEqualTo(4);
		List<OutboundNotification> taken = takeAll(pending, 0);
		assertThat(taken).extracting(OutboundNotification::subscribedUri)
			.containsExactly("a://items/{id}", "a://other");
		assertThat(taken).allMatch(OutboundNotification::resync);
		assertThat(taken).extracting(OutboundNotification::publishedAt).containsOnly(NOW);
	}

	@Test
	void resyncsStopAtTheCapacity() {
		this.subscriptions.clear();
		for (int i = 0; i < 5; i++) {
			this.subscriptions.add("a://s" + i);
		}
		Pending pending = pending(3);
		pending.resync((subscribedUri) -> !subscribedUri.equals("a://s0"), NOW);
		assertThat(takeAll(pending, 0)).extracting(OutboundNotification::subscribedUri)
			.containsExactly("a://s1", "a://s2", "a://s3");
	}

	@Test
	void aNotificationPutBackGoesFirstUnlessANewerOneTookItsPlace() {
		Pending pending = pending(10);
		pending.offer(change("a://items/1", 1), true);
		pending.offer(change("a://items/2", 1), true);
		OutboundNotification first = pending.pollDue(0);
		assertThat(first).isNotNull();
		pending.putBack(first);
		assertThat(drain(pending, 0)).containsExactly("a://items/1 1", "a://items/2 1");
		pending.offer(change("a://items/1", 1), true);
		OutboundNotification taken = pending.pollDue(0);
		assertThat(taken).isNotNull();
		pending.offer(change("a://items/1", 2), true);
		pending.putBack(taken);
		assertThat(drain(pending, 0)).containsExactly("a://items/1 2");
	}

	@Test
	void clearDropsEverythingAndTheRateLimitsMemory() {
		Pending pending = pending(10, 10, Duration.ofSeconds(1));
		pending.offer(change("a://items/1", 1), true);
		assertThat(pending.pollDue(0)).isNotNull();
		pending.offer(change("a://items/1", 2), true);
		pending.clear();
		assertThat(pending.isEmpty()).isTrue();
		pending.offer(change("a://items/1", 3), true);
		assertThat(pending.pollDue(1)).isNotNull();
	}

	@Test
	void theClockIsInNanosecondsSinceTheEpoch() {
		assertThat(Pending.nanos(Instant.ofEpochSecond(2, 5))).isEqualTo(2 * SECOND + 5);
	}

	private static List<String> drain(Pending pending, long now) {
		return takeAll(pending, now).stream().map((n) -> n.uri() + " " + n.attributes().get("version")).toList();
	}

	private static List<OutboundNotification> takeAll(Pending pending, long now) {
		List<OutboundNotification> taken = new ArrayList<>();
		for (@Nullable
		OutboundNotification next = pending.pollDue(now); next != null; next = pending.pollDue(now)) {
			taken.add(next);
		}
		return taken;
	}

	private static OutboundNotification change(String uri, int version) {
		return change(uri, "a://items/{id}", version);
	}

	private static OutboundNotification change(String uri, String subscribedUri, int version) {
		return new OutboundNotification(OutboundNotification.RESOURCE_UPDATED, uri, subscribedUri,
				Map.of("version", version), false, NOW);
	}

}
