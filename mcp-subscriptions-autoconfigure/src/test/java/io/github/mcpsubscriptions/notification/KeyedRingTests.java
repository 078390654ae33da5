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
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * What waits for a subscriber that fell behind keeps its order and one notification per
 * key however many wait, whatever is taken out of the middle, and as the ring grows,
 * wraps around and compacts its holes.
 */
class KeyedRingTests {

	private final KeyedRing ring = new KeyedRing();

	@Test
	void thousandsWaitInOrderAndANewerOneTakesItsKeysPlace() {
		for (int i = 0; i < 5000; i++) {
			assertThat(this.ring.put(change(i, 1))).isNull();
		}
		OutboundNotification replaced = this.ring.put(change(2500, 2));
		assertThat(replaced).isNotNull();
		assertThat(describe(replaced)).isEqualTo("a://items/2500 1");
		assertThat(this.ring.size()).isEqualTo(5000);
		List<String> described = described();
		assertThat(described).hasSize(5000);
		assertThat(described.get(0)).isEqualTo("a://items/0 1");
		assertThat(described.get(2500)).isEqualTo("a://items/2500 2");
		assertThat(described.get(4999)).isEqualTo("a://items/4999 1");
	}

	@Test
	void holesLeftInTheMiddleAreSkippedAndCompactedWithoutLosingOrder() {
		for (int i = 0; i < 32; i++) {
			this.ring.put(change(i, 1));
		}
		for (int i = 1; i < 32; i += 2) {
			this.ring.remove(change(i, 1).key());
		}
		assertThat(this.ring.get(change(1, 1).key())).isNull();
		assertThat(this.ring.get(change(2, 1).key())).isNotNull();
		// The ring is full of live ones and holes: the next one compacts rather than
		// grows.
		for (int i = 32; i < 48; i++) {
			this.ring.put(change(i, 1));
		}
		List<String> expected = new ArrayList<>();
		for (int i = 0; i < 32; i += 2) {
			expected.add("a://items/" + i + " 1");
		}
		for (int i = 32; i < 48; i++) {
			expected.add("a://items/" + i + " 1");
		}
		assertThat(described()).containsExactlyElementsOf(expected);
		assertThat(this.ring.size()).isEqualTo(32);
	}

	@Test
	void theFirstIsTakenPastTheHolesBeforeIt() {
		for (int i = 0; i < 5; i++) {
			this.ring.put(change(i, 1));
		}
		this.ring.remove(change(1, 1).key());
		this.ring.remove(change(2, 1).key());
		assertThat(describe(this.ring.pollFirst())).isEqualTo("a://items/0 1");
		assertThat(describe(this.ring.peekFirst())).isEqualTo("a://items/3 1");
		assertThat(describe(this.ring.pollFirst())).isEqualTo("a://items/3 1");
		assertThat(describe(this.ring.pollFirst())).isEqualTo("a://items/4 1");
		assertThat(this.ring.pollFirst()).isNull();
		assertThat(this.ring.isEmpty()).isTrue();
	}

	@Test
	void theIteratorRemovesWhatItLastGaveOnlyOnce() {
		for (int i = 0; i < 3; i++) {
			this.ring.put(change(i, 1));
		}
		Iterator<OutboundNotification> iterator = this.ring.iterator();
		assertThatIllegalStateException().isThrownBy(iterator::remove);
		iterator.next();
		iterator.next();
		iterator.remove();
		assertThatIllegalStateException().isThrownBy(iterator::remove);
		assertThat(describe(iterator.next())).isEqualTo("a://items/2 1");
		assertThat(iterator.hasNext()).isFalse();
		assertThat(described()).containsExactly("a://items/0 1", "a://items/2 1");
	}

	@Test
	void clearedRingTakesNotificationsAgain() {
		for (int i = 0; i < 100; i++) {
			this.ring.put(change(i, 1));
		}
		this.ring.clear();
		assertThat(this.ring.isEmpty()).isTrue();
		assertThat(this.ring.get(change(5, 1).key())).isNull();
		this.ring.put(change(7, 1));
		assertThat(described()).containsExactly("a://items/7 1");
	}

	/**
	 * A seeded walk through every operation, checked after each step against a
	 * {@link LinkedHashMap}, which keeps the same order and the same one-per-key rule:
	 * the keys are few enough to collide, replace and come back, and the queue stays long
	 * enough to wrap, grow and compact.
	 */
	@Test
	void behavesAsAnInsertionOrderedMapThroughRandomOperations() {
		for (long seed = 1; seed <= 20; seed++) {
			Random random = new Random(seed);
			KeyedRing ring = new KeyedRing();
			Map<OutboundNotification.Key, OutboundNotification> model = new LinkedHashMap<>();
			int keys = 8 + random.nextInt(300);
			for (int step = 0; step < 4000; step++) {
				int operation = random.nextInt(10);
				OutboundNotification notification = change(random.nextInt(keys), step);
				if (operation < 5) {
					assertThat(ring.put(notification)).isSameAs(model.put(notification.key(), notification));
				}
				else if (operation < 7) {
					OutboundNotification first = model.isEmpty() ? null : model.values().iterator().next();
					assertThat(ring.pollFirst()).isSameAs(first);
					if (first != null) {
						model.remove(first.key());
					}
				}
				else if (operation < 9) {
					ring.remove(notification.key());
					model.remove(notification.key());
				}
				else {
					int version = step;
					ring.removeIf((waiting) -> waiting.uri().hashCode() % 7 == version % 7);
					model.values().removeIf((waiting) -> waiting.uri().hashCode() % 7 == version % 7);
				}
				assertThat(ring.size()).as("seed %d step %d", seed, step).isEqualTo(model.size());
				assertThat(ring.get(notification.key())).isSameAs(model.get(notification.key()));
				if (step % 50 == 0) {
					List<OutboundNotification> inRing = new ArrayList<>();
					ring.forEach(inRing::add);
					assertThat(inRing).as("seed %d step %d", seed, step).containsExactlyElementsOf(model.values());
				}
			}
		}
	}

	private List<String> described() {
		List<String> described = new ArrayList<>();
		this.ring.forEach((notification) -> described.add(describe(notification)));
		return described;
	}

	private static String describe(OutboundNotification notification) {
		return notification.uri() + " " + notification.attributes().get("v");
	}

	private static OutboundNotification change(int item, int version) {
		return OutboundNotification
			.updated(new ResourceChange("a://items/" + item, Map.of("v", version), Instant.EPOCH), "a://items/{id}");
	}

}
