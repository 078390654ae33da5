package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.test.ManualDeliveryScheduler;
import io.github.mcpsubscriptions.test.MutableClock;
import io.github.mcpsubscriptions.test.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Coalescing, trailing-edge rate limits, waiting for a stream and overflow, on a clock
 * the test moves.
 */
@ExtendWith(OutputCaptureExtension.class)
class OutboxTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private final MutableClock clock = new MutableClock(START);

	private final ManualDeliveryScheduler scheduler = new ManualDeliveryScheduler(this.clock);

	private final NotificationStats stats = new NotificationStats();

	private final Set<String> subscriptions = new LinkedHashSet<>(List.of("a://items"));

	private final List<String> written = new ArrayList<>();

	/** The outbox's delivery threads, for {@link #offer}. */
	private final Map<Outbox, DeliveryScheduler> schedulers = new IdentityHashMap<>();

	private Outbox track(Outbox outbox, DeliveryScheduler scheduler) {
		this.schedulers.put(outbox, scheduler);
		return outbox;
	}

	/**
	 * What a delivery lane does with a notification for a subscriber: queue it in the
	 * outbox and hand the drain it starts, if any, to the delivery threads.
	 */
	private void offer(Outbox outbox, OutboundNotification notification) {
		Runnable drain = outbox.queue(notification);
		if (drain != null) {
			this.schedulers.get(outbox).execute(drain);
		}
	}

	private Outbox outbox(int capacity, Duration minInterval) {
		return outbox(capacity, minInterval, this.scheduler, WriteBatch.DEFAULT, "");
	}

	private Outbox outbox(int capacity, Duration minInterval, DeliveryScheduler scheduler, WriteBatch batch,
			String name) {
		// The configuration's intervals: without a limit, an outbox takes its fast path.
		return track(new Outbox(capacity, new MinIntervals(minInterval, Map.of()), this.clock, scheduler,
				(stream, notification) -> {
					stream.send(null, notification.uri() + (notification.resync() ? " resync" : "") + " "
							+ notification.attributes());
					this.written.add(name + notification.uri() + (notification.resync() ? " resync" : "") + " "
							+ notification.attributes().getOrDefault("v", ""));
				}, this.stats, () -> this.subscriptions, batch), scheduler);
	}

	@Test
	void whatWaitsIsWrittenAsOneBatch() {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream stream = new RecordingStream();
		stream.holdWrites();
		outbox.attach(stream);
		for (int i = 1; i <= 5; i++) {
			offer(outbox, change("a://items/" + i, 1));
		}
		assertThat(this.written).isEmpty();
		stream.taken();
		assertThat(this.written).containsExactly("a://items/1 1", "a://items/2 1", "a://items/3 1", "a://items/4 1",
				"a://items/5 1");
		assertThat(stream.batches()).as("one flush for everything that waited").containsExactly(5);
		assertThat(this.stats.getSent()).isEqualTo(5);
	}

	@Test
	void aFullBatchGoesBehindTheOtherSubscribersDrains() {
		List<Runnable> queue = new ArrayList<>();
		DeliveryScheduler queued = new DeliveryScheduler() {

			@Override
			public void execute(Runnable task) {
				queue.add(task);
			}

			@Override
			public void schedule(Runnable task, Duration delay) {
			}

		};
		WriteBatch twoAtATime = new WriteBatch(2, 1 << 20);
		Outbox a = outbox(10, Duration.ZERO, queued, twoAtATime, "A ");
		Outbox b = outbox(10, Duration.ZERO, queued, twoAtATime, "B ");
		RecordingStream streamA = new RecordingStream();
		RecordingStream streamB = new RecordingStream();
		a.attach(streamA);
		b.attach(streamB);
		for (int i = 1; i <= 3; i++) {
			offer(a, change("a://items/" + i, 1));
		}
		for (int i = 1; i <= 3; i++) {
			offer(b, change("a://items/" + i, 1));
		}
		while (!queue.isEmpty()) {
			queue.remove(0).run();
		}
		assertThat(this.written).containsExactly("A a://items/1 1", "A a://items/2 1", "B a://items/1 1",
				"B a://items/2 1", "A a://items/3 1", "B a://items/3 1");
		assertThat(streamA.batches()).containsExactly(2, 1);
		assertThat(streamB.batches()).containsExactly(2, 1);
	}

	@Test
	void atSaturationALoneNotificationWaitsOnceForCompanyOnAStreamThatHadCompany() {
		GatheringScheduler saturated = new GatheringScheduler();
		RecordingStream stream = new RecordingStream();
		Outbox outbox = attached(saturated, stream);
		offer(outbox, change("a://items/1", 1));
		saturated.runQueued();
		assertThat(stream.batches()).as("a single change never waits").containsExactly(1);
		offer(outbox, change("a://items/2", 1));
		offer(outbox, change("a://items/3", 1));
		saturated.runQueued();
		assertThat(stream.batches()).as("delivery lagged: the stream had company").containsExactly(1, 2);
		offer(outbox, change("a://items/4", 1));
		this.clock.advance(Duration.ofMillis(30));
		saturated.runQueued();
		assertThat(this.written).as("the lone notification waits").hasSize(3);
		assertThat(saturated.waited).as("after waiting 30 ms for its turn").containsExactly(30L);
		assertThat(saturated.gathered).hasSize(1);
		assertThat(this.stats.getGathered()).isOne();
		offer(outbox, change("a://items/5", 1));
		assertThat(saturated.queued).as("it joins the waiting drain").isEmpty();
		saturated.runGathered();
		assertThat(stream.batches()).as("and shares its write").containsExactly(1, 2, 2);
		offer(outbox, change("a://items/6", 1));
		saturated.runQueued();
		saturated.runGathered();
		assertThat(stream.batches()).as("nothing joined: it waits only once").containsExactly(1, 2, 2, 1);
		assertThat(this.stats.getGathered()).isEqualTo(2);
		assertThat(this.written).containsExactly("a://items/1 1", "a://items/2 1", "a://items/3 1", "a://items/4 1",
				"a://items/5 1", "a://items/6 1");
	}

	@Test
	void aLoneNotificationWaitsOnlyWhileDeliveryIsSaturatedAndCompanyCameWithinASecond() {
		GatheringScheduler scheduler = new GatheringScheduler();
		RecordingStream stream = new RecordingStream();
		Outbox outbox = attached(scheduler, stream);
		offer(outbox, change("a://items/1", 1));
		offer(outbox, change("a://items/2", 1));
		scheduler.runQueued();
		scheduler.saturated = false;
		offer(outbox, change("a://items/3", 1));
		scheduler.runQueued();
		assertThat(stream.batches()).as("delivery keeps up: nothing waits").containsExactly(2, 1);
		scheduler.saturated = true;
		this.clock.advance(Duration.ofSeconds(1));
		offer(outbox, change("a://items/4", 1));
		scheduler.runQueued();
		assertThat(stream.batches()).as("company came a second ago: nothing waits").containsExactly(2, 1, 1);
		assertThat(scheduler.gathered).isEmpty();
		assertThat(this.stats.getGathered()).isZero();
	}

	@Test
	void aBatchEndsAtItsByteBudget() {
		Outbox outbox = outbox(10, Duration.ZERO, this.scheduler, new WriteBatch(64, 1), "");
		RecordingStream stream = new RecordingStream();
		stream.holdWrites();
		outbox.attach(stream);
		for (int i = 1; i <= 3; i++) {
			offer(outbox, change("a://items/" + i, 1));
		}
		stream.taken();
		assertThat(this.written).containsExactly("a://items/1 1", "a://items/2 1", "a://items/3 1");
		assertThat(stream.batches()).as("every notification is past a budget of one byte").containsExactly(1, 1, 1);
	}

	@Test
	void aClientLeavingInTheMiddleOfABatchLosesNothingThatWasNotWritten() {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream first = new RecordingStream();
		first.holdWrites();
		outbox.attach(first);
		for (int i = 1; i <= 4; i++) {
			offer(outbox, change("a://items/" + i, 1));
		}
		first.failAfter(2);
		first.taken();
		assertThat(this.written).containsExactly("a://items/1 1", "a://items/2 1");
		assertThat(first.isOpen()).isFalse();
		assertThat(outbox.size()).as("the one that failed and the one after it wait").isEqualTo(2);
		RecordingStream second = new RecordingStream();
		outbox.attach(second);
		assertThat(this.written).containsExactly("a://items/1 1", "a://items/2 1", "a://items/3 1", "a://items/4 1");
		assertThat(second.batches()).containsExactly(2);
	}

	@Test
	void aNotificationForAStreamThatClosedBeforeItsBatchBeganWaitsForTheNext() {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream first = new RecordingStream();
		outbox.attach(first);
		first.close();
		offer(outbox, change("a://items/1", 1));
		assertThat(outbox.size()).isOne();
		RecordingStream second = new RecordingStream();
		outbox.attach(second);
		assertThat(this.written).containsExactly("a://items/1 1");
		assertThat(second.written()).hasSize(1);
	}

	@Test
	void aWriteBatchHoldsAtLeastOneNotificationAndOneByte() {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new WriteBatch(0, 1))
			.withMessageContaining("at least one notification");
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new WriteBatch(1, 0))
			.withMessageContaining("at least 1 byte");
	}

	@Test
	void anErrorInAWriterDoesNotStopLaterDeliveries() {
		List<String> delivered = new ArrayList<>();
		boolean[] failed = { false };
		Outbox outbox = track(
				new Outbox(10, (uri) -> Duration.ZERO, this.clock, this.scheduler, (stream, notification) -> {
					if (!failed[0]) {
						failed[0] = true;
						throw new OutOfMemoryError("simulated");
					}
					delivered.add(notification.uri());
				}, this.stats, () -> this.subscriptions), this.scheduler);
		outbox.attach(new RecordingStream());
		assertThatExceptionOfType(OutOfMemoryError.class).isThrownBy(() -> offer(outbox, change("a://items/1", 1)));
		offer(outbox, change("a://items/2", 1));
		assertThat(delivered).containsExactly("a://items/2");
	}

	@Test
	void deliversInOrderWhenStreamIsOpen() {
		Outbox outbox = outbox(10, Duration.ZERO);
		outbox.attach(new RecordingStream());
		offer(outbox, change("a://items/1", 1));
		offer(outbox, change("a://items/2", 1));
		assertThat(this.written).containsExactly("a://items/1 1", "a://items/2 1");
		assertThat(this.stats.getSent()).isEqualTo(2);
	}

	@Test
	void waitsForStreamThenDeliversCoalesced() {
		Outbox outbox = outbox(10, Duration.ZERO);
		offer(outbox, change("a://items/1", 1));
		offer(outbox, change("a://items/2", 1));
		offer(outbox, change("a://items/1", 2));
		assertThat(this.written).isEmpty();
		assertThat(outbox.size()).isEqualTo(2);
		outbox.attach(new RecordingStream());
		// The second change of item 1 took the first one's place, with the newer
		// attributes.
		assertThat(this.written).containsExactly("a://items/1 2", "a://items/2 1");
		assertThat(this.stats.getCoalesced()).isOne();
	}

	@Test
	void rateLimitDelaysButNeverDropsTheLastChange() {
		Outbox outbox = outbox(10, Duration.ofSeconds(1));
		outbox.attach(new RecordingStream());
		offer(outbox, change("a://items/1", 1));
		assertThat(this.written).containsExactly("a://items/1 1");
		offer(outbox, change("a://items/1", 2));
		offer(outbox, change("a://items/1", 3));
		assertThat(this.written).hasSize(1);
		assertThat(this.stats.getDelayed()).isOne();
		this.scheduler.advance(Duration.ofMillis(999));
		assertThat(this.written).hasSize(1);
		this.scheduler.advance(Duration.ofMillis(1));
		// Trailing edge: the last change goes out when the interval has passed.
		assertThat(this.written).containsExactly("a://items/1 1", "a://items/1 3");
		assertThat(this.scheduler.pendingTimers()).isZero();
	}

	@Test
	void rateLimitIsPerSubscription() {
		Outbox outbox = track(new Outbox(10, (uri) -> uri.equals("a://slow") ? Duration.ofSeconds(5) : Duration.ZERO,
				this.clock, this.scheduler, (stream, n) -> this.written.add(n.subscribedUri() + " " + n.uri()),
				this.stats, () -> this.subscriptions), this.scheduler);
		outbox.attach(new RecordingStream());
		offer(outbox, change("a://slow/1", "a://slow", 1));
		offer(outbox, change("a://slow/2", "a://slow", 1));
		offer(outbox, change("a://fast/1", "a://fast", 1));
		assertThat(this.written).containsExactly("a://slow a://slow/1", "a://fast a://fast/1");
		this.scheduler.advance(Duration.ofSeconds(5));
		assertThat(this.written).containsExactly("a://slow a://slow/1", "a://fast a://fast/1", "a://slow a://slow/2");
	}

	@Test
	void overflowClosesStreamAndQueuesResync() {
		Outbox outbox = outbox(2, Duration.ZERO);
		RecordingStream stream = new RecordingStream();
		offer(outbox, change("a://items/1", 1));
		offer(outbox, change("a://items/2", 1));
		outbox.attach(stream);
		this.written.clear();
		outbox.detach(stream);
		offer(outbox, change("a://items/3", 1));
		offer(outbox, change("a://items/4", 1));
		offer(outbox, change("a://items/5", 1));
		assertThat(this.stats.getOverflows()).isOne();
		assertThat(this.stats.getDroppedOnOverflow()).as("items 3 and 4 waited, 5 did not fit").isEqualTo(3);
		assertThat(outbox.size()).as("only the resync waits").isOne();
		RecordingStream next = new RecordingStream();
		outbox.attach(next);
		assertThat(this.written).containsExactly("a://items resync ");
		assertThat(this.stats.getResyncsQueued()).isOne();
	}

	@Test
	void slowConsumerOverflowClosesItsOpenStream() {
		List<Runnable> stalledDrains = new ArrayList<>();
		DeliveryScheduler stalled = new DeliveryScheduler() {

			@Override
			public void execute(Runnable task) {
				// The writer is stuck on a client that does not read.
				stalledDrains.add(task);
			}

			@Override
			public void schedule(Runnable task, Duration delay) {
			}

		};
		Outbox outbox = track(new Outbox(2, (uri) -> Duration.ZERO, this.clock, stalled, (stream, n) -> {
		}, this.stats, () -> this.subscriptions), stalled);
		RecordingStream stream = new RecordingStream();
		outbox.attach(stream);
		offer(outbox, change("a://items/1", 1));
		offer(outbox, change("a://items/2", 1));
		assertThat(stream.isOpen()).isTrue();
		offer(outbox, change("a://items/3", 1));
		assertThat(stream.isOpen()).as("past the bound the stream is closed").isFalse();
		assertThat(this.stats.getOverflows()).isOne();
		assertThat(outbox.size()).as("memory is released: only the resync waits").isOne();
	}

	@Test
	void stalledWriteGivesUpStreamAndQueuesResync() throws Exception {
		CountDownLatch writing = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		DeliveryScheduler threads = new DeliveryScheduler() {

			@Override
			public void execute(Runnable task) {
				Thread thread = new Thread(task);
				thread.setDaemon(true);
				thread.start();
			}

			@Override
			public void schedule(Runnable task, Duration delay) {
			}

		};
		Outbox outbox = track(new Outbox(10, (uri) -> Duration.ZERO, this.clock, threads, (stream, n) -> {
			writing.countDown();
			try {
				// A client that does not read: the write blocks.
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, this.stats, () -> this.subscriptions), threads);
		RecordingStream stream = new RecordingStream();
		outbox.attach(stream);
		offer(outbox, change("a://items/1", 1));
		assertThat(writing.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(outbox.takeStalledStream(this.clock.instant(), Duration.ofSeconds(10))).isNull();
		this.clock.advance(Duration.ofSeconds(11));
		assertThat(outbox.takeStalledStream(this.clock.instant(), Duration.ofSeconds(10))).isSameAs(stream);
		assertThat(this.stats.getStalls()).isOne();
		assertThat(outbox.size()).as("a resync waits for the client's return").isOne();
		release.countDown();
	}

	@Test
	void writerWaitsForNonBlockingStreamWithoutAThreadThenWritesTheNewest() {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream stream = new RecordingStream();
		outbox.attach(stream);
		offer(outbox, change("a://items/1", 1));
		stream.holdWrites();
		offer(outbox, change("a://items/2", 1));
		offer(outbox, change("a://items/2", 2));
		outbox.keepAlive();
		assertThat(this.written).as("nothing written while the client has not taken the last write")
			.containsExactly("a://items/1 1");
		stream.taken();
		assertThat(this.written).containsExactly("a://items/1 1", "a://items/2 2");
		assertThat(stream.written()).as("no keep-alive was queued behind the untaken write")
			.noneMatch((line) -> line.startsWith(":"));
	}

	@Test
	void untakenWriteGivesUpStreamAfterWriteTimeout() {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream stream = new RecordingStream();
		outbox.attach(stream);
		stream.holdWrites();
		offer(outbox, change("a://items/1", 1));
		this.clock.advance(Duration.ofSeconds(9));
		assertThat(outbox.takeStalledStream(this.clock.instant(), Duration.ofSeconds(10))).isNull();
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(outbox.takeStalledStream(this.clock.instant(), Duration.ofSeconds(10))).isSameAs(stream);
		assertThat(this.stats.getStalls()).isOne();
		RecordingStream next = new RecordingStream();
		outbox.attach(next);
		assertThat(outbox.takeStalledStream(this.clock.instant(), Duration.ofSeconds(10)))
			.as("the new stream is not blamed for the old one's stall")
			.isNull();
		assertThat(this.written).as("what waited, then the resync, on the new stream")
			.containsExactly("a://items/1 1", "a://items resync ");
	}

	@Test
	void takenWriteIsNeverTakenForAStall() {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream stream = new RecordingStream();
		outbox.attach(stream);
		offer(outbox, change("a://items/1", 1));
		assertThat(this.written).containsExactly("a://items/1 1");
		this.clock.advance(Duration.ofSeconds(11));
		assertThat(outbox.takeStalledStream(this.clock.instant(), Duration.ofSeconds(10)))
			.as("an idle stream whose client took the last write")
			.isNull();
		assertThat(this.stats.getStalls()).isZero();
	}

	@Test
	void nothingOfAStreamCarriesOverToTheNextOne() {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream first = new RecordingStream();
		outbox.attach(first);
		first.holdWrites();
		offer(outbox, change("a://items/1", 1));
		assertThat(this.written).as("the first stream's client has not taken its last write").isEmpty();
		RecordingStream second = new RecordingStream();
		outbox.attach(second);
		assertThat(this.written).as("the new stream does not wait for the old one's client")
			.containsExactly("a://items/1 1");
		this.clock.advance(Duration.ofSeconds(11));
		assertThat(outbox.takeStalledStream(this.clock.instant(), Duration.ofSeconds(10))).isNull();
		// The old stream's callback and its detach come late: they touch nothing of the
		// new.
		first.taken();
		outbox.detach(first);
		offer(outbox, change("a://items/2", 1));
		assertThat(this.written).containsExactly("a://items/1 1", "a://items/2 1");
		assertThat(first.written()).isEmpty();
		assertThat(second.written()).hasSize(2);
	}

	@Test
	void keepAliveGoesThroughTheWriter() {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream stream = new RecordingStream();
		outbox.keepAlive();
		outbox.attach(stream);
		assertThat(stream.written()).as("no stream, no keep-alive").isEmpty();
		outbox.keepAlive();
		assertThat(stream.written()).containsExactly(":keep-alive");
	}

	@Test
	void attachActionRunsBeforeWaitingNotifications() {
		Outbox outbox = outbox(10, Duration.ZERO);
		offer(outbox, change("a://items/1", 1));
		RecordingStream stream = new RecordingStream();
		outbox.attach(stream, (target, self) -> target.send("replayed-1", "old"));
		assertThat(stream.written()).first().isEqualTo("id=replayed-1 data=old");
		assertThat(this.written).containsExactly("a://items/1 1");
	}

	@Test
	void failedWriteKeepsNotificationForNextStream() {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream broken = new RecordingStream();
		broken.failWrites();
		outbox.attach(broken);
		offer(outbox, change("a://items/1", 1));
		assertThat(this.written).isEmpty();
		assertThat(outbox.size()).isOne();
		outbox.attach(new RecordingStream());
		assertThat(this.written).containsExactly("a://items/1 1");
	}

	@Test
	void forgetDropsWaitingNotificationsOfSubscription() {
		Outbox outbox = outbox(10, Duration.ZERO);
		offer(outbox, change("a://items/1", "a://items", 1));
		offer(outbox, change("b://x", "b://x", 1));
		outbox.forget("a://items");
		outbox.attach(new RecordingStream());
		assertThat(this.written).containsExactly("b://x 1");
	}

	@Test
	void closedOutboxAcceptsNothing() {
		Outbox outbox = outbox(10, Duration.ZERO);
		outbox.close();
		offer(outbox, change("a://items/1", 1));
		outbox.attach(new RecordingStream());
		assertThat(outbox.size()).isZero();
		assertThat(this.written).isEmpty();
	}

	@Test
	void resyncOnRequestCoversEverySubscription() {
		this.subscriptions.add("b://other");
		Outbox outbox = outbox(10, Duration.ZERO);
		outbox.resync();
		outbox.attach(new RecordingStream());
		assertThat(this.written).containsExactly("a://items resync ", "b://other resync ");
	}

	@Test
	void aReplayIsWrittenUnderTheBatchBudgetAsTheClientTakesItThenWhatWaits() {
		Outbox outbox = outbox(10, Duration.ZERO, this.scheduler, new WriteBatch(3, 1 << 20), "");
		offer(outbox, change("a://items/live", 1));
		RecordingStream stream = new RecordingStream();
		stream.holdWrites();
		int[] produced = { 0 };
		outbox.attach(stream, (target, self) -> self.replay(target, (replayTarget, replaying) -> {
			if (produced[0] == 7) {
				return false;
			}
			produced[0]++;
			replayTarget.send("r" + produced[0], "old " + produced[0]);
			return true;
		}));
		assertThat(produced[0]).as("nothing until the client has taken the last write").isZero();
		stream.taken();
		assertThat(stream.written()).containsExactly("id=r1 data=old 1", "id=r2 data=old 2", "id=r3 data=old 3",
				"id=r4 data=old 4", "id=r5 data=old 5", "id=r6 data=old 6", "id=r7 data=old 7",
				"id=null data=a://items/live {v=1}");
		assertThat(stream.batches()).as("the write budget, replay and live delivery alike").containsExactly(3, 3, 2);
	}

	@Test
	void aReplayThatFailsIsAResyncNeverASilentGap(CapturedOutput output) {
		Outbox outbox = outbox(10, Duration.ZERO);
		RecordingStream stream = new RecordingStream();
		outbox.attach(stream, (target, self) -> self.replay(target, (replayTarget, replaying) -> {
			throw new IllegalStateException("the log went away");
		}));
		assertThat(this.written).containsExactly("a://items resync ");
		assertThat(output).contains("WARN")
			.contains("Replaying to an MCP stream failed; its subscriptions are told to resync")
			.contains("the log went away");
	}

	@Test
	void withoutAStreamAtMostTheDetachedCapacityWaitsThenOneResyncPerSubscriptionStandsForTheRest() {
		this.subscriptions.add("b://other");
		Outbox outbox = track(new Outbox(10, 3, (uri) -> Duration.ZERO, this.clock, this.scheduler,
				(stream, notification) -> this.written
					.add(notification.uri() + (notification.resync() ? " resync" : "")),
				this.stats, () -> this.subscriptions, WriteBatch.DEFAULT), this.scheduler);
		for (int i = 1; i <= 3; i++) {
			offer(outbox, change("a://items/" + i, 1));
		}
		assertThat(outbox.size()).isEqualTo(3);
		offer(outbox, change("a://items/4", 1));
		assertThat(outbox.size()).as("one resync per subscription").isEqualTo(2);
		for (int i = 5; i <= 50; i++) {
			offer(outbox, change("a://items/" + i, 1));
		}
		assertThat(outbox.size()).as("the resync covers what follows").isEqualTo(2);
		offer(outbox, change("b://other/1", "b://other", 1));
		outbox.attach(new RecordingStream());
		assertThat(this.written).containsExactly("a://items resync", "b://other resync");
		offer(outbox, change("a://items/51", 1));
		assertThat(this.written).as("with a stream, notifications flow again").endsWith("a://items/51");
	}

	private Outbox attached(GatheringScheduler scheduler, RecordingStream stream) {
		Outbox outbox = outbox(10, Duration.ZERO, scheduler, WriteBatch.DEFAULT, "");
		outbox.attach(stream);
		return outbox;
	}

	/**
	 * Queues drains for the test to run; while saturated, gathers those offered to it.
	 */
	private static final class GatheringScheduler implements DeliveryScheduler {

		final List<Runnable> queued = new ArrayList<>();

		final List<Runnable> gathered = new ArrayList<>();

		final List<Long> waited = new ArrayList<>();

		boolean saturated = true;

		@Override
		public void execute(Runnable task) {
			this.queued.add(task);
		}

		@Override
		public void schedule(Runnable task, Duration delay) {
			throw new AssertionError("nothing here is rate-limited");
		}

		@Override
		public boolean gather(Runnable task, long waitedMillis) {
			this.waited.add(waitedMillis);
			if (!this.saturated) {
				return false;
			}
			this.gathered.add(task);
			return true;
		}

		void runQueued() {
			while (!this.queued.isEmpty()) {
				this.queued.remove(0).run();
			}
		}

		void runGathered() {
			while (!this.gathered.isEmpty()) {
				this.gathered.remove(0).run();
			}
		}

	}

	private static OutboundNotification change(String uri, int version) {
		return change(uri, "a://items", version);
	}

	private static OutboundNotification change(String uri, String subscribedUri, int version) {
		return OutboundNotification.updated(new ResourceChange(uri, Map.of("v", version), START), subscribedUri);
	}

}
