package io.github.mcpsubscriptions.notification;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outbox's queue keeps a few notifications in a ring and moves to a table when more
 * wait: in both states it keeps order and one notification per key.
 */
class WaitingNotificationsTests {

	private final WaitingNotifications waiting = new WaitingNotifications();

	@Test
	void oneNotificationWaitsAndIsReplacedByItsNewerSelf() {
		OutboundNotification first = change("a://items/1", 1);
		OutboundNotification newer = change("a://items/1", 2);
		assertThat(this.waiting.put(first)).isNull();
		assertThat(this.waiting.put(newer)).isSameAs(first);
		assertThat(this.waiting.size()).isEqualTo(1);
		assertThat(this.waiting.get(first.key())).isSameAs(newer);
		assertThat(uris()).containsExactly("a://items/1 2");
	}

	@Test
	void aSecondKeyQueuesBehindTheFirstAndCoalescesInPlace() {
		this.waiting.put(change("a://items/1", 1));
		this.waiting.put(change("a://items/2", 1));
		this.waiting.put(change("a://items/3", 1));
		assertThat(this.waiting.put(change("a://items/1", 2))).isNotNull();
		assertThat(this.waiting.size()).isEqualTo(3);
		assertThat(uris()).containsExactly("a://items/1 2", "a://items/2 1", "a://items/3 1");
	}

	@Test
	void emptiedQueueTakesNotificationsAgain() {
		this.waiting.put(change("a://items/1", 1));
		this.waiting.put(change("a://items/2", 1));
		poll();
		poll();
		assertThat(this.waiting.isEmpty()).isTrue();
		assertThat(this.waiting.size()).isZero();
		this.waiting.put(change("a://items/3", 1));
		this.waiting.put(change("a://items/4", 1));
		assertThat(uris()).containsExactly("a://items/3 1", "a://items/4 1");
		assertThat(poll()).isEqualTo("a://items/3 1");
		assertThat(this.waiting.put(change("a://items/4", 2))).isNotNull();
		assertThat(uris()).containsExactly("a://items/4 2");
	}

	@Test
	void removeTakesTheNotificationOfAKeyInBothStates() {
		OutboundNotification one = change("a://items/1", 1);
		this.waiting.put(one);
		this.waiting.remove(change("a://items/2", 1).key());
		assertThat(this.waiting.size()).isEqualTo(1);
		this.waiting.remove(one.key());
		assertThat(this.waiting.isEmpty()).isTrue();
		this.waiting.put(one);
		OutboundNotification two = change("a://items/2", 1);
		this.waiting.put(two);
		this.waiting.remove(two.key());
		this.waiting.remove(one.key());
		assertThat(this.waiting.isEmpty()).isTrue();
		assertThat(this.waiting.get(one.key())).isNull();
	}

	@Test
	void removeIfAndClearEmptyBothStates() {
		this.waiting.put(change("a://items/1", 1));
		this.waiting.removeIf((notification) -> notification.uri().endsWith("/1"));
		assertThat(this.waiting.isEmpty()).isTrue();
		this.waiting.put(change("a://items/1", 1));
		this.waiting.put(change("a://items/2", 1));
		this.waiting.removeIf((notification) -> notification.uri().endsWith("/1"));
		assertThat(uris()).containsExactly("a://items/2 1");
		this.waiting.removeIf((notification) -> true);
		assertThat(this.waiting.isEmpty()).isTrue();
		this.waiting.put(change("a://items/1", 1));
		this.waiting.put(change("a://items/2", 1));
		this.waiting.clear();
		assertThat(this.waiting.isEmpty()).isTrue();
		assertThat(uris()).isEmpty();
	}

	@Test
	void putFirstGoesAheadUnlessItsKeyWaits() {
		this.waiting.putFirst(change("a://items/1", 1));
		assertThat(uris()).containsExactly("a://items/1 1");
		this.waiting.putFirst(change("a://items/2", 1));
		this.waiting.putFirst(change("a://items/1", 3));
		assertThat(uris()).containsExactly("a://items/2 1", "a://items/1 1");
	}

	@Test
	void moreThanTheRingHoldsMoveToTheTableInOrderAndStillCoalesce() {
		int many = WaitingNotifications.FEW + 3;
		for (int i = 1; i <= many; i++) {
			assertThat(this.waiting.put(change("a://items/" + i, 1))).isNull();
		}
		assertThat(this.waiting.put(change("a://items/2", 2))).isNotNull();
		assertThat(this.waiting.size()).isEqualTo(many);
		List<String> expected = new ArrayList<>();
		for (int i = 1; i <= many; i++) {
			expected.add("a://items/" + i + " " + ((i == 2) ? 2 : 1));
		}
		assertThat(uris()).isEqualTo(expected);
		for (int i = 0; i < many; i++) {
			assertThat(poll()).isEqualTo(expected.get(i));
		}
		assertThat(this.waiting.isEmpty()).isTrue();
		this.waiting.put(change("a://items/9", 1));
		this.waiting.put(change("a://items/9", 2));
		assertThat(uris()).containsExactly("a://items/9 2");
	}

	@Test
	void theRingKeepsOrderAcrossItsEndAndWhenOneInTheMiddleGoes() {
		for (int round = 0; round < 3; round++) {
			for (int i = 0; i < WaitingNotifications.FEW - 2; i++) {
				this.waiting.put(change("a://items/" + round + "-" + i, 1));
			}
			for (int i = 0; i < WaitingNotifications.FEW - 3; i++) {
				poll();
			}
			this.waiting.clear();
		}
		this.waiting.put(change("a://items/1", 1));
		this.waiting.put(change("a://items/2", 1));
		this.waiting.put(change("a://items/3", 1));
		poll();
		this.waiting.put(change("a://items/4", 1));
		this.waiting.putFirst(change("a://items/0", 1));
		this.waiting.remove(change("a://items/3", 1).key());
		Iterator<OutboundNotification> iterator = this.waiting.iterator();
		iterator.next();
		iterator.next();
		iterator.remove();
		assertThat(uris()).containsExactly("a://items/0 1", "a://items/4 1");
		assertThat(this.waiting.get(change("a://items/4", 1).key())).isNotNull();
		assertThat(this.waiting.get(change("a://items/2", 1).key())).isNull();
	}

	@Test
	void pollFirstTakesTheFirstInBothStates() {
		assertThat(this.waiting.pollFirst()).isNull();
		this.waiting.put(change("a://items/1", 1));
		this.waiting.put(change("a://items/2", 1));
		assertThat(describe(this.waiting.pollFirst())).isEqualTo("a://items/1 1");
		for (int i = 3; i <= WaitingNotifications.FEW + 3; i++) {
			this.waiting.put(change("a://items/" + i, 1));
		}
		assertThat(describe(this.waiting.pollFirst())).isEqualTo("a://items/2 1");
		int left = this.waiting.size();
		for (int i = 0; i < left; i++) {
			assertThat(describe(this.waiting.pollFirst())).isEqualTo("a://items/" + (i + 3) + " 1");
		}
		assertThat(this.waiting.isEmpty()).isTrue();
		assertThat(this.waiting.pollFirst()).isNull();
	}

	@Test
	void queuesWhoseRingsShareAnArrayKeepTheirOwnNotifications() {
		List<WaitingNotifications> queues = new ArrayList<>();
		for (int q = 0; q < 2 * WaitingNotifications.RINGS_PER_ARRAY + 3; q++) {
			queues.add(new WaitingNotifications());
		}
		for (int round = 0; round < WaitingNotifications.FEW + 2; round++) {
			for (int q = 0; q < queues.size(); q++) {
				queues.get(q).put(change("a://q" + q + "/" + round, round));
			}
			if (round % 3 == 2) {
				queues.forEach(WaitingNotifications::pollFirst);
			}
		}
		for (int q = 0; q < queues.size(); q++) {
			List<String> uris = new ArrayList<>();
			queues.get(q).forEach((notification) -> uris.add(notification.uri()));
			assertThat(uris).as("queue %d", q)
				.containsExactly("a://q" + q + "/3", "a://q" + q + "/4", "a://q" + q + "/5", "a://q" + q + "/6",
						"a://q" + q + "/7", "a://q" + q + "/8", "a://q" + q + "/9");
			queues.get(q).clear();
		}
		assertThat(queues).allSatisfy((queue) -> assertThat(queue.isEmpty()).isTrue());
	}

	/**
	 * A seeded walk through every operation, checked after each step against a
	 * {@link LinkedHashMap} that keeps the same order and the same one-per-key rule: the
	 * queue moves from its ring to its table and back many times on the way.
	 */
	@Test
	void behavesAsAnInsertionOrderedMapAcrossRingAndTable() {
		for (long seed = 1; seed <= 20; seed++) {
			Random random = new Random(seed);
			WaitingNotifications waiting = new WaitingNotifications();
			Map<OutboundNotification.Key, OutboundNotification> model = new LinkedHashMap<>();
			int keys = 4 + random.nextInt(40);
			for (int step = 0; step < 3000; step++) {
				int operation = random.nextInt(12);
				OutboundNotification notification = change("a://items/" + random.nextInt(keys), step);
				if (operation < 5) {
					assertThat(waiting.put(notification)).isSameAs(model.put(notification.key(), notification));
				}
				else if (operation < 8) {
					OutboundNotification first = model.isEmpty() ? null : model.values().iterator().next();
					assertThat(waiting.pollFirst()).isSameAs(first);
					if (first != null) {
						model.remove(first.key());
					}
				}
				else if (operation < 10) {
					waiting.remove(notification.key());
					model.remove(notification.key());
				}
				else if (operation < 11) {
					if (!model.containsKey(notification.key())) {
						Map<OutboundNotification.Key, OutboundNotification> rest = new LinkedHashMap<>(model);
						model.clear();
						model.put(notification.key(), notification);
						model.putAll(rest);
					}
					waiting.putFirst(notification);
				}
				else {
					int version = step;
					waiting.removeIf((candidate) -> candidate.uri().hashCode() % 5 == version % 5);
					model.values().removeIf((candidate) -> candidate.uri().hashCode() % 5 == version % 5);
				}
				assertThat(waiting.size()).as("seed %d step %d", seed, step).isEqualTo(model.size());
				assertThat(waiting.get(notification.key())).isSameAs(model.get(notification.key()));
				List<OutboundNotification> inOrder = new ArrayList<>();
				waiting.forEach(inOrder::add);
				assertThat(inOrder).as("seed %d step %d", seed, step).containsExactlyElementsOf(model.values());
			}
		}
	}

	private String poll() {
		Iterator<OutboundNotification> iterator = this.waiting.iterator();
		OutboundNotification first = iterator.next();
		iterator.remove();
		return describe(first);
	}

	private List<String> uris() {
		List<String> uris = new ArrayList<>();
		this.waiting.forEach((notification) -> uris.add(describe(notification)));
		return uris;
	}

	private static String describe(OutboundNotification notification) {
		return notification.uri() + " " + notification.attributes().get("v");
	}

	private static OutboundNotification change(String uri, int version) {
		return OutboundNotification.updated(new ResourceChange(uri, Map.of("v", version), Instant.EPOCH),
				"a://items/{id}");
	}

}
