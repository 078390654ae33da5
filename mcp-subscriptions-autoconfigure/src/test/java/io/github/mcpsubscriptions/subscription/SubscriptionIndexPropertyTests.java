package io.github.mcpsubscriptions.subscription;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks the index against its oracle: scanning every subscription with
 * {@link CoverageRules#covers(String, String)}.
 */
class SubscriptionIndexPropertyTests {

	private static final String[] ROOTS = { "file:///", "catalog://", "x:", "weather://" };

	private static final String[] SEGMENTS = { "a", "b", "ab", "a.log", "b.error.log", "7", "70", "products",
			"products-archive", "" };

	private static final String[] TEMPLATE_TAILS = { "{id}", "{+rest}", "{id}.log", "{id}/reviews", "{id}{?v}",
			"-{id}" };

	private static final String[] GLOBS = { "*", "*.log", "**", "**/*.log", "a?", "?", "*.error.log", "a/**/b", "**/7",
			"%2A.log", "a*/*", "*/**" };

	private static final String[] SUFFIXES = { "", "", "", "", "/", "?v=2", "?q=1", "#f", "/?v=2" };

	private final Random random = new Random(20260728L);

	@Test
	void matchesEqualScanningWithCoverageRules() {
		SubscriptionIndex<String> index = new SubscriptionIndex<>();
		Set<SubscriptionMatch<String>> subscriptions = new HashSet<>();
		while (subscriptions.size() < 3000) {
			SubscriptionMatch<String> subscription = new SubscriptionMatch<>("s" + this.random.nextInt(60),
					randomSubscription());
			assertThat(index.add(subscription.subscriber(), subscription.subscribedUri()))
				.isEqualTo(subscriptions.add(subscription));
		}
		List<String> changes = randomChanges(subscriptions, 2000);
		Map<CoverageKind, Integer> matchesByKind = assertMatchesEqualScan(index, subscriptions, changes);
		// Guards against a vacuous pass: every kind must have matched many times.
		assertThat(matchesByKind.values()).allSatisfy((count) -> assertThat(count).isGreaterThan(200));

		List<SubscriptionMatch<String>> shuffled = new ArrayList<>(subscriptions);
		Collections.shuffle(shuffled, this.random);
		for (SubscriptionMatch<String> subscription : shuffled.subList(0, shuffled.size() / 2)) {
			assertThat(index.remove(subscription.subscriber(), subscription.subscribedUri())).isTrue();
			subscriptions.remove(subscription);
		}
		assertMatchesEqualScan(index, subscriptions, changes.subList(0, 500));
		assertThat(index.size()).isEqualTo(subscriptions.size());

		for (int subscriber = 0; subscriber < 60; subscriber++) {
			index.removeAll("s" + subscriber);
		}
		assertThat(index.internalCounts()).isEqualTo(new SubscriptionIndex.InternalCounts(0, 0, 0, 0, 0, 0, 0, 0));
		assertThat(index.size()).isZero();
	}

	private Map<CoverageKind, Integer> assertMatchesEqualScan(SubscriptionIndex<String> index,
			Set<SubscriptionMatch<String>> subscriptions, List<String> changes) {
		Map<CoverageKind, Integer> matchesByKind = new EnumMap<>(CoverageKind.class);
		for (String changed : changes) {
			Set<SubscriptionMatch<String>> expected = new HashSet<>();
			for (SubscriptionMatch<String> subscription : subscriptions) {
				if (CoverageRules.covers(subscription.subscribedUri(), changed)) {
					expected.add(subscription);
					matchesByKind.merge(CoverageRules.kindOf(subscription.subscribedUri()), 1, Integer::sum);
				}
			}
			List<SubscriptionMatch<String>> actual = index.match(changed);
			assertThat(actual).as("matches of %s", changed).doesNotHaveDuplicates();
			assertThat(new HashSet<>(actual)).as("matches of %s", changed).isEqualTo(expected);
		}
		return matchesByKind;
	}

	private String randomSubscription() {
		String path = randomPath();
		return switch (this.random.nextInt(10)) {
			case 0, 1, 2 -> path;
			case 3 -> path + pick(SUFFIXES);
			case 4, 5 -> path + "/";
			case 6, 7 -> (this.random.nextInt(8) == 0) ? pick("{+all}", "x:{id}", "{scheme}:a", "weather:{id}")
					: path + pick("/", "/", "") + pick(TEMPLATE_TAILS);
			default -> path + pick("/", "") + "?" + pick("", "", "tail=1&") + "pattern=" + pick(GLOBS);
		};
	}

	private List<String> randomChanges(Set<SubscriptionMatch<String>> subscriptions, int count) {
		List<String> plain = subscriptions.stream()
			.map(SubscriptionMatch::subscribedUri)
			.filter((uri) -> uri.indexOf('{') < 0)
			.toList();
		List<String> changes = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String change = switch (this.random.nextInt(4)) {
				case 0 -> plain.get(this.random.nextInt(plain.size())) + pick("", "", "/7", "/a.log", "-x");
				default -> randomPath() + pick(SUFFIXES);
			};
			changes.add(change);
		}
		return changes;
	}

	private String randomPath() {
		StringBuilder path = new StringBuilder(pick(ROOTS));
		int depth = this.random.nextInt(5);
		for (int i = 0; i < depth; i++) {
			if (i > 0 || this.random.nextBoolean()) {
				path.append(pick(SEGMENTS));
			}
			if (i < depth - 1) {
				path.append('/');
			}
		}
		return path.toString();
	}

	private String pick(String... choices) {
		return choices[this.random.nextInt(choices.length)];
	}

}
