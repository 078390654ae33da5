package io.github.mcpsubscriptions.subscription;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import io.github.mcpsubscriptions.subscription.SubscriptionIndex.InternalCounts;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.entry;

class SubscriptionIndexTests {

	private final SubscriptionIndex<String> index = new SubscriptionIndex<>();

	@Test
	void exactSubscriptionMatchesItselfAndDescendantsOnly() {
		this.index.add("alice", "catalog://products");
		assertThat(this.index.match("catalog://products")).containsExactly(match("alice", "catalog://products"));
		assertThat(this.index.match("catalog://products/7/reviews"))
			.containsExactly(match("alice", "catalog://products"));
		assertThat(this.index.match("catalog://products-archive/7")).isEmpty();
		assertThat(this.index.match("catalog://product")).isEmpty();
		assertThat(this.index.match("catalog://")).isEmpty();
		assertThat(this.index.match("catalog://products?x=/y")).isEmpty();
	}

	@Test
	void forEachMatchHandsOverEverySubscriberOfACoveringUriOnceWithThatUri() {
		// The dispatcher's way: no list of matches per change, and no match object per
		// subscriber to read (#29).
		String template = "catalog://products/{id}";
		this.index.add("alice", template);
		this.index.add("bob", template);
		this.index.add("bob", "catalog://products/");
		this.index.add("carol", "catalog://orders/{id}");
		List<SubscriptionMatch<String>> visited = new ArrayList<>();
		BiConsumer<String, String> visit = (subscriber, uri) -> visited.add(match(subscriber, uri));
		assertThat(this.index.forEachMatch("catalog://products/7", visit)).isEqualTo(3);
		assertThat(visited).containsExactlyInAnyOrder(match("alice", template), match("bob", template),
				match("bob", "catalog://products/"));
		this.index.remove("alice", template);
		visited.clear();
		assertThat(this.index.forEachMatch("catalog://products/9", visit)).isEqualTo(2);
		assertThat(visited).containsExactlyInAnyOrder(match("bob", template), match("bob", "catalog://products/"));
		this.index.add("alice", template);
		assertThat(this.index.match("catalog://products/9")).containsExactlyInAnyOrder(match("alice", template),
				match("bob", template), match("bob", "catalog://products/"));
		assertThat(this.index.forEachMatch("catalog://orders", visit)).isZero();
	}

	@Test
	void directorySubscriptionMatchesRecursively() {
		this.index.add("alice", "file:///logs/");
		assertThat(this.index.match("file:///logs/a.log")).containsExactly(match("alice", "file:///logs/"));
		assertThat(this.index.match("file:///logs/x/y.log")).containsExactly(match("alice", "file:///logs/"));
		assertThat(this.index.match("file:///logs/")).containsExactly(match("alice", "file:///logs/"));
		assertThat(this.index.match("file:///logs")).isEmpty();
		assertThat(this.index.match("file:///logs-old/a.log")).isEmpty();
	}

	@Test
	void subscriptionWithQueryMatchesOnlyItself() {
		this.index.add("alice", "api:///events?type=error");
		assertThat(this.index.match("api:///events?type=error"))
			.containsExactly(match("alice", "api:///events?type=error"));
		assertThat(this.index.match("api:///events?type=warning")).isEmpty();
		assertThat(this.index.match("api:///events")).isEmpty();
		assertThat(this.index.match("api:///events/1")).isEmpty();
	}

	@Test
	void templateSubscriptionMatchesEveryInstanceOnly() {
		this.index.add("alice", "catalog://products/{id}");
		assertThat(this.index.match("catalog://products/7")).containsExactly(match("alice", "catalog://products/{id}"));
		assertThat(this.index.match("catalog://products/8")).containsExactly(match("alice", "catalog://products/{id}"));
		assertThat(this.index.match("catalog://products/7/reviews")).isEmpty();
		assertThat(this.index.match("catalog://products")).isEmpty();
		assertThat(this.index.match("catalog://orders/7")).isEmpty();
	}

	@Test
	void templatesWithoutSlashInLiteralPrefixMatch() {
		this.index.add("alice", "weather:{city}");
		this.index.add("bob", "{+anything}");
		this.index.add("carol", "catalog://{kind}/{id}");
		assertThat(this.index.match("weather:paris")).containsExactlyInAnyOrder(match("alice", "weather:{city}"),
				match("bob", "{+anything}"));
		assertThat(this.index.match("catalog://products/7")).containsExactlyInAnyOrder(match("bob", "{+anything}"),
				match("carol", "catalog://{kind}/{id}"));
		assertThat(this.index.match("other:x")).containsExactly(match("bob", "{+anything}"));
	}

	@Test
	void templateWithQueryInLiteralPrefixMatches() {
		this.index.add("alice", "api:///events?type=/{kind}");
		assertThat(this.index.match("api:///events?type=/error"))
			.containsExactly(match("alice", "api:///events?type=/{kind}"));
		assertThat(this.index.match("api:///events")).isEmpty();
	}

	@Test
	void patternSubscriptionMatchesGlobBelowBase() {
		this.index.add("alice", "file:///logs?pattern=*.error.log");
		this.index.add("bob", "file:///logs/?pattern=**/*.log");
		assertThat(this.index.match("file:///logs/app.error.log")).containsExactlyInAnyOrder(
				match("alice", "file:///logs?pattern=*.error.log"), match("bob", "file:///logs/?pattern=**/*.log"));
		assertThat(this.index.match("file:///logs/2026/app.error.log"))
			.containsExactly(match("bob", "file:///logs/?pattern=**/*.log"));
		assertThat(this.index.match("file:///logs/app.txt")).isEmpty();
		assertThat(this.index.match("file:///other/app.error.log")).isEmpty();
		assertThat(this.index.match("file:///logs-old/app.error.log")).isEmpty();
	}

	@Test
	void oneSubscriberGetsOneMatchPerMatchingSubscription() {
		this.index.add("alice", "file:///home/");
		this.index.add("alice", "file:///home/projects/");
		this.index.add("alice", "file:///elsewhere/");
		assertThat(this.index.match("file:///home/projects/foo.txt"))
			.containsExactlyInAnyOrder(match("alice", "file:///home/"), match("alice", "file:///home/projects/"));
	}

	@Test
	void everySubscriberOfAUriGetsOneMatch() {
		this.index.add("alice", "catalog://products/7");
		this.index.add("bob", "catalog://products/7");
		assertThat(this.index.match("catalog://products/7"))
			.containsExactlyInAnyOrder(match("alice", "catalog://products/7"), match("bob", "catalog://products/7"));
	}

	@Test
	void kindsMixInOneMatch() {
		this.index.add("alice", "catalog://products");
		this.index.add("alice", "catalog://products/7");
		this.index.add("bob", "catalog://products/{id}");
		this.index.add("carol", "catalog://?pattern=**/7");
		this.index.add("dave", "catalog://products/8");
		assertThat(this.index.match("catalog://products/7")).containsExactlyInAnyOrder(
				match("alice", "catalog://products"), match("alice", "catalog://products/7"),
				match("bob", "catalog://products/{id}"), match("carol", "catalog://?pattern=**/7"));
	}

	@Test
	void doubleSlashesDoNotDuplicateMatches() {
		this.index.add("alice", "file://");
		this.index.add("bob", "file:/");
		this.index.add("carol", "file:");
		assertThat(this.index.match("file:///x")).containsExactlyInAnyOrder(match("alice", "file://"),
				match("bob", "file:/"), match("carol", "file:"));
	}

	@Test
	void addIsIdempotent() {
		assertThat(this.index.add("alice", "catalog://products/7")).isTrue();
		assertThat(this.index.add("alice", "catalog://products/7")).isFalse();
		assertThat(this.index.add("alice", "catalog://products/{id}")).isTrue();
		assertThat(this.index.add("alice", "catalog://products/{id}")).isFalse();
		assertThat(this.index.size()).isEqualTo(2);
		assertThat(this.index.match("catalog://products/7")).hasSize(2);
	}

	@Test
	void removeOfUnknownSubscriptionReturnsFalse() {
		assertThat(this.index.remove("alice", "catalog://products/7")).isFalse();
		this.index.add("alice", "catalog://products/7");
		assertThat(this.index.remove("alice", "catalog://products/8")).isFalse();
		assertThat(this.index.remove("bob", "catalog://products/7")).isFalse();
		assertThat(this.index.size()).isOne();
		assertThat(this.index.remove("alice", "catalog://products/7")).isTrue();
		assertThat(this.index.remove("alice", "catalog://products/7")).isFalse();
		assertThat(this.index.match("catalog://products/7")).isEmpty();
	}

	@Test
	void removeLeavesOtherSubscribersOfTheUri() {
		this.index.add("alice", "catalog://products/{id}");
		this.index.add("bob", "catalog://products/{id}");
		this.index.remove("alice", "catalog://products/{id}");
		assertThat(this.index.match("catalog://products/7")).containsExactly(match("bob", "catalog://products/{id}"));
		assertThat(this.index.internalCounts().entries()).isOne();
	}

	@Test
	void removeAllRemovesEverySubscriptionOfTheSubscriber() {
		this.index.add("alice", "catalog://products/7");
		this.index.add("alice", "file:///logs/");
		this.index.add("alice", "catalog://products/{id}");
		this.index.add("bob", "catalog://products/7");
		assertThat(this.index.removeAll("alice")).isEqualTo(3);
		assertThat(this.index.removeAll("alice")).isZero();
		assertThat(this.index.subscriptionsOf("alice")).isEmpty();
		assertThat(this.index.subscriptionsOf("bob")).containsExactly("catalog://products/7");
		assertThat(this.index.match("catalog://products/7")).containsExactly(match("bob", "catalog://products/7"));
		assertThat(this.index.match("file:///logs/a.log")).isEmpty();
		assertThat(this.index.size()).isOne();
		assertThat(this.index.subscriberCount()).isOne();
	}

	@Test
	void subscriptionsOfIsASnapshot() {
		this.index.add("alice", "catalog://products/7");
		Set<String> snapshot = this.index.subscriptionsOf("alice");
		this.index.add("alice", "catalog://products/8");
		assertThat(snapshot).containsExactly("catalog://products/7");
		assertThat(this.index.subscriptionsOf("alice")).containsExactlyInAnyOrder("catalog://products/7",
				"catalog://products/8");
	}

	@Test
	void countsSubscriptionsByKind() {
		assertThat(this.index.countByKind()).containsOnly(entry(CoverageKind.EXACT, 0), entry(CoverageKind.PREFIX, 0),
				entry(CoverageKind.TEMPLATE, 0), entry(CoverageKind.PATTERN, 0));
		this.index.add("alice", "catalog://products/7");
		this.index.add("bob", "catalog://products/7");
		this.index.add("alice", "catalog://products");
		this.index.add("alice", "file:///logs/");
		this.index.add("alice", "catalog://products/{id}");
		this.index.add("alice", "file:///logs?pattern=*.log");
		this.index.add("bob", "file:///logs?pattern=*.log");
		assertThat(this.index.countByKind()).containsOnly(entry(CoverageKind.EXACT, 3), entry(CoverageKind.PREFIX, 1),
				entry(CoverageKind.TEMPLATE, 1), entry(CoverageKind.PATTERN, 2));
		assertThat(this.index.size()).isEqualTo(7);
		assertThat(this.index.subscriberCount()).isEqualTo(2);
		this.index.removeAll("bob");
		assertThat(this.index.countByKind()).containsOnly(entry(CoverageKind.EXACT, 2), entry(CoverageKind.PREFIX, 1),
				entry(CoverageKind.TEMPLATE, 1), entry(CoverageKind.PATTERN, 1));
	}

	@Test
	void invalidSubscriptionIsRejectedWithoutTrace() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.index.add("alice", "catalog://products/{id"))
			.withMessageContaining("unclosed");
		assertThatIllegalArgumentException().isThrownBy(() -> this.index.add("alice", "file:///logs?pattern="))
			.withMessageContaining("empty");
		assertThatIllegalArgumentException().isThrownBy(() -> this.index.add("alice", "file:///logs?pattern=***"))
			.withMessageContaining("'*'");
		assertThat(this.index.size()).isZero();
		assertThat(this.index.internalCounts()).isEqualTo(new InternalCounts(0, 0, 0, 0, 0, 0, 0, 0));
	}

	@Test
	void removingEverythingLeavesNoInternalEntries() {
		List<String> uris = List.of("catalog://products/7", "catalog://products", "file:///logs/",
				"catalog://products/{id}", "weather:{city}", "{+all}", "file:///logs?pattern=*.log",
				"file:///logs/?pattern=**/*.log", "api:///events?type=error");
		for (String uri : uris) {
			this.index.add("alice", uri);
			this.index.add("bob", uri);
		}
		InternalCounts full = this.index.internalCounts();
		assertThat(full.entries()).isEqualTo(uris.size());
		assertThat(full.subscriberSlots()).isEqualTo(2 * uris.size());
		// catalog://products/, weather:, "", and file:///logs/ for both patterns
		assertThat(full.groups()).isEqualTo(4);
		assertThat(full.groupedEntries()).isEqualTo(5);
		assertThat(full.subscribers()).isEqualTo(2);
		assertThat(full.reverseEntries()).isEqualTo(2 * uris.size());
		for (String uri : uris) {
			this.index.remove("alice", uri);
		}
		assertThat(this.index.internalCounts())
			.isEqualTo(new InternalCounts(uris.size(), uris.size(), 4, 5, 0, 0, 1, uris.size()));
		this.index.removeAll("bob");
		assertThat(this.index.internalCounts()).isEqualTo(new InternalCounts(0, 0, 0, 0, 0, 0, 0, 0));
		assertThat(this.index.size()).isZero();
		assertThat(this.index.subscriberCount()).isZero();
		assertThat(this.index.countByKind().values()).containsOnly(0);
		for (String uri : uris) {
			assertThat(this.index.match(uri.replace("{id}", "7"))).isEmpty();
		}
	}

	@Test
	void customMatcherReplacesRuleForItsScheme() {
		SubscriptionMatcher tags = new PrefixWordMatcher("tags");
		SubscriptionIndex<String> index = new SubscriptionIndex<>(List.of(tags));
		index.add("alice", "tags:red");
		index.add("alice", "TAGS:blue");
		index.add("bob", "catalog://products");
		// not a directory of tags:red by the default rules, but by the custom one
		assertThat(index.match("tags:red-apple")).containsExactly(match("alice", "tags:red"));
		assertThat(index.match("tags:red/1")).isEmpty();
		assertThat(index.match("Tags:blueberry")).containsExactly(match("alice", "TAGS:blue"));
		assertThat(index.match("other:red-apple")).isEmpty();
		// other schemes keep the default rules
		assertThat(index.match("catalog://products/7")).containsExactly(match("bob", "catalog://products"));
		assertThat(index.countByKind()).containsEntry(CoverageKind.EXACT, 3);
		InternalCounts counts = index.internalCounts();
		assertThat(counts.customGroups()).isOne();
		assertThat(counts.customEntries()).isEqualTo(2);
		index.removeAll("alice");
		assertThat(index.internalCounts().customGroups()).isZero();
		assertThat(index.internalCounts().customEntries()).isZero();
	}

	@Test
	void customMatcherTakesSubscriptionsTheDefaultRulesWouldReject() {
		SubscriptionIndex<String> index = new SubscriptionIndex<>(List.of(new PrefixWordMatcher("tags")));
		assertThat(index.add("alice", "tags:{unclosed")).isTrue();
		assertThat(index.match("tags:{unclosed-too")).containsExactly(match("alice", "tags:{unclosed"));
		assertThat(index.countByKind()).containsEntry(CoverageKind.TEMPLATE, 1);
	}

	@Test
	void firstMatcherThatSupportsTheSchemeWins() {
		List<String> asked = new ArrayList<>();
		SubscriptionMatcher never = new SubscriptionMatcher() {

			@Override
			public boolean supportsScheme(String scheme) {
				asked.add("never:" + scheme);
				return scheme.equals("tags");
			}

			@Override
			public boolean covers(String subscribedUri, String changedUri) {
				return false;
			}

		};
		SubscriptionMatcher always = new SubscriptionMatcher() {

			@Override
			public boolean supportsScheme(String scheme) {
				asked.add("always:" + scheme);
				return true;
			}

			@Override
			public boolean covers(String subscribedUri, String changedUri) {
				return true;
			}

		};
		SubscriptionIndex<String> index = new SubscriptionIndex<>(List.of(never, always));
		index.add("alice", "tags:red");
		index.add("alice", "labels:red");
		assertThat(asked).containsExactly("never:tags", "never:labels", "always:labels");
		assertThat(index.match("tags:red")).isEmpty();
		assertThat(index.match("labels:anything")).containsExactly(match("alice", "labels:red"));
		SubscriptionIndex<String> reversed = new SubscriptionIndex<>(List.of(always, never));
		reversed.add("alice", "tags:red");
		assertThat(reversed.match("tags:blue")).containsExactly(match("alice", "tags:red"));
	}

	@Test
	void customMatcherCanExtendTheDefaultRules() {
		SubscriptionMatcher caseInsensitive = new SubscriptionMatcher() {

			@Override
			public boolean supportsScheme(String scheme) {
				return scheme.equals("file");
			}

			@Override
			public boolean covers(String subscribedUri, String changedUri) {
				return CoverageRules.covers(subscribedUri, changedUri)
						|| CoverageRules.covers(subscribedUri.toLowerCase(), changedUri.toLowerCase());
			}

		};
		SubscriptionIndex<String> index = new SubscriptionIndex<>(List.of(caseInsensitive));
		index.add("alice", "file:///Logs/");
		assertThat(index.match("file:///logs/a.log")).containsExactly(match("alice", "file:///Logs/"));
		assertThat(index.match("file:///Logs/a.log")).containsExactly(match("alice", "file:///Logs/"));
		assertThat(index.match("file:///other/a.log")).isEmpty();
	}

	@Test
	void matchResultIsOwnedByTheCaller() {
		this.index.add("alice", "catalog://products/7");
		List<SubscriptionMatch<String>> matches = this.index.match("catalog://products/7");
		matches.clear();
		assertThat(this.index.match("catalog://products/7")).hasSize(1);
	}

	private static SubscriptionMatch<String> match(String subscriber, String subscribedUri) {
		return new SubscriptionMatch<>(subscriber, subscribedUri);
	}

	/**
	 * Covers changed URIs that start with the subscribed word, ignoring case, within one
	 * path segment.
	 */
	private record PrefixWordMatcher(String scheme) implements SubscriptionMatcher {

		@Override
		public boolean supportsScheme(String scheme) {
			return this.scheme.equals(scheme);
		}

		@Override
		public boolean covers(String subscribedUri, String changedUri) {
			String subscribed = subscribedUri.toLowerCase();
			String changed = changedUri.toLowerCase();
			return changed.startsWith(subscribed) && changed.indexOf('/', subscribed.length()) < 0;
		}

	}

}
