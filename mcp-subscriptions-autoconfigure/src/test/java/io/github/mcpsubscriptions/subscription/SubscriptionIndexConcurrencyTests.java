package io.github.mcpsubscriptions.subscription;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.subscription.SubscriptionIndex.InternalCounts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writers add and remove subscriptions while readers match, all at once: no update may be
 * lost, no match may be wrong or duplicated, and nothing may be left behind.
 */
class SubscriptionIndexConcurrencyTests {

	private static final int WRITERS = 4;

	private static final int READERS = 2;

	private static final int OPERATIONS = 20_000;

	/**
	 * URIs that all writers use, so that they race to create and drop the same entries
	 * and groups.
	 */
	private static final List<String> SHARED_URIS = List.of("catalog://products", "catalog://products/1",
			"catalog://products/2", "catalog://products/", "catalog://products/{id}", "catalog://products/{id}/reviews",
			"catalog://{kind}/{id}", "catalog://products?pattern=*", "catalog://products/?pattern=**/reviews",
			"file:///logs/", "file:///logs?pattern=*.error.log", "file:///logs/?pattern=**/*.log",
			"file:///logs/app.error.log", "weather:{city}", "{+all}", "api:///events?type=error");

	private static final List<String> CHANGES = List.of("catalog://products", "catalog://products/1",
			"catalog://products/2/reviews", "catalog://orders/9", "file:///logs/app.error.log",
			"file:///logs/2026/x.log", "weather:paris", "api:///events?type=error", "other://nothing");

	private final ExecutorService executor = Executors.newFixedThreadPool(WRITERS + READERS);

	@AfterEach
	void shutdown() {
		this.executor.shutdownNow();
	}

	@Test
	void concurrentWritesAndMatchesStayConsistent() throws Exception {
		SubscriptionIndex<String> index = new SubscriptionIndex<>();
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Map<String, Set<String>>>> writers = new ArrayList<>();
		for (int writer = 0; writer < WRITERS; writer++) {
			writers.add(this.executor.submit(writer(index, writer, start)));
		}
		List<Future<Integer>> readers = new ArrayList<>();
		for (int reader = 0; reader < READERS; reader++) {
			readers.add(this.executor.submit(reader(index, reader, start)));
		}
		start.countDown();
		Map<String, Set<String>> expected = new HashMap<>();
		for (Future<Map<String, Set<String>>> writer : writers) {
			writer.get(2, TimeUnit.MINUTES)
				.forEach((subscriber, uris) -> expected.computeIfAbsent(subscriber, (key) -> new HashSet<>())
					.addAll(uris));
		}
		int matched = 0;
		for (Future<Integer> reader : readers) {
			matched += reader.get(2, TimeUnit.MINUTES);
		}
		assertThat(matched).isGreaterThan(1000);

		expected.values().removeIf(Set::isEmpty);
		assertContent(index, expected);

		// Ending every subscriber from several threads at once leaves nothing behind.
		CountDownLatch endAll = new CountDownLatch(1);
		List<Future<Integer>> enders = new ArrayList<>();
		List<String> subscribers = new ArrayList<>(expected.keySet());
		for (int ender = 0; ender < WRITERS; ender++) {
			int first = ender;
			enders.add(this.executor.submit(() -> {
				endAll.await();
				int removed = 0;
				for (int i = first; i < subscribers.size(); i += WRITERS) {
					removed += index.removeAll(subscribers.get(i));
				}
				return removed;
			}));
		}
		endAll.countDown();
		int removed = 0;
		for (Future<Integer> ender : enders) {
			removed += ender.get(2, TimeUnit.MINUTES);
		}
		assertThat(removed).isEqualTo(expected.values().stream().mapToInt(Set::size).sum());
		assertThat(index.internalCounts()).isEqualTo(new InternalCounts(0, 0, 0, 0, 0, 0, 0, 0));
		assertThat(index.size()).isZero();
		assertThat(index.countByKind().values()).containsOnly(0);
	}

	/**
	 * Each writer owns its subscribers, so it knows what every call must return, and adds
	 * its own URIs to one subscriber that all writers share.
	 */
	private Callable<Map<String, Set<String>>> writer(SubscriptionIndex<String> index, int writer,
			CountDownLatch start) {
		return () -> {
			Random random = new Random(writer);
			Map<String, Set<String>> model = new HashMap<>();
			List<String> subscribers = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				subscribers.add("w" + writer + "-s" + i);
			}
			Set<String> sharedSubscriberUris = new HashSet<>();
			start.await();
			for (int operation = 0; operation < OPERATIONS; operation++) {
				int choice = random.nextInt(100);
				if (choice < 10) {
					String uri = "catalog://shared/w" + writer + "/" + random.nextInt(20);
					boolean add = random.nextBoolean();
					boolean changed = add ? index.add("shared", uri) : index.remove("shared", uri);
					boolean expected = add ? sharedSubscriberUris.add(uri) : sharedSubscriberUris.remove(uri);
					assertThat(changed).isEqualTo(expected);
					continue;
				}
				String subscriber = subscribers.get(random.nextInt(subscribers.size()));
				Set<String> uris = model.computeIfAbsent(subscriber, (key) -> new HashSet<>());
				String uri = SHARED_URIS.get(random.nextInt(SHARED_URIS.size()));
				if (choice < 55) {
					assertThat(index.add(subscriber, uri)).isEqualTo(uris.add(uri));
				}
				else if (choice < 98) {
					assertThat(index.remove(subscriber, uri)).isEqualTo(uris.remove(uri));
				}
				else {
					assertThat(index.removeAll(subscriber)).isEqualTo(uris.size());
					uris.clear();
				}
			}
			Map<String, Set<String>> result = new HashMap<>(model);
			result.put("shared", sharedSubscriberUris);
			return result;
		};
	}

	private Callable<Integer> reader(SubscriptionIndex<String> index, int reader, CountDownLatch start) {
		return () -> {
			start.await();
			int matched = 0;
			for (int i = 0; i < OPERATIONS; i++) {
				String changed = CHANGES.get((i + reader) % CHANGES.size());
				List<SubscriptionMatch<String>> matches = index.match(changed);
				assertThat(matches).doesNotHaveDuplicates();
				for (SubscriptionMatch<String> match : matches) {
					assertThat(CoverageRules.covers(match.subscribedUri(), changed))
						.as("%s covers %s", match.subscribedUri(), changed)
						.isTrue();
				}
				matched += matches.size();
			}
			return matched;
		};
	}

	private void assertContent(SubscriptionIndex<String> index, Map<String, Set<String>> expected) {
		int size = 0;
		Set<String> distinctUris = new HashSet<>();
		Map<CoverageKind, Integer> kinds = new EnumMap<>(CoverageKind.class);
		for (CoverageKind kind : CoverageKind.values()) {
			kinds.put(kind, 0);
		}
		for (Map.Entry<String, Set<String>> entry : expected.entrySet()) {
			assertThat(index.subscriptionsOf(entry.getKey())).as(entry.getKey()).isEqualTo(entry.getValue());
			size += entry.getValue().size();
			distinctUris.addAll(entry.getValue());
			entry.getValue().forEach((uri) -> kinds.merge(CoverageRules.kindOf(uri), 1, Integer::sum));
		}
		assertThat(index.size()).isEqualTo(size);
		assertThat(index.subscriberCount()).isEqualTo(expected.size());
		assertThat(index.countByKind()).isEqualTo(kinds);
		InternalCounts counts = index.internalCounts();
		assertThat(counts.entries()).isEqualTo(distinctUris.size());
		assertThat(counts.subscriberSlots()).isEqualTo(size);
		assertThat(counts.reverseEntries()).isEqualTo(size);
		assertThat(counts.subscribers()).isEqualTo(expected.size());
		assertThat(counts.groupedEntries()).isEqualTo((int) distinctUris.stream()
			.filter((uri) -> CoverageRules.kindOf(uri) == CoverageKind.TEMPLATE
					|| CoverageRules.kindOf(uri) == CoverageKind.PATTERN)
			.count());
		for (String changed : CHANGES) {
			Set<SubscriptionMatch<String>> scanned = new HashSet<>();
			expected.forEach((subscriber, uris) -> uris.stream()
				.filter((uri) -> CoverageRules.covers(uri, changed))
				.forEach((uri) -> scanned.add(new SubscriptionMatch<>(subscriber, uri))));
			assertThat(new HashSet<>(index.match(changed))).as(changed).isEqualTo(scanned);
		}
	}

}
