package io.github.mcpsubscriptions.subscription;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.BiConsumer;

import io.github.mcpsubscriptions.subscription.CoverageRules.Rule;
import org.jspecify.annotations.Nullable;

/**
 * The subscriptions of all subscribers, indexed so that finding the subscriptions that
 * cover a changed URI costs time in proportion to the number of matches and the depth of
 * the URI, not to the number of subscriptions.
 * <p>
 * Coverage follows the {@link CoverageRules default rules}, except for URI schemes that a
 * {@link SubscriptionMatcher} supports. A change of {@code U} looks up, by hashing, the
 * plain subscriptions equal to {@code U} or to one of its path prefixes that end just
 * before or just after a {@code /}; templates and patterns are grouped by the
 * {@code /}-terminated prefix that every URI they cover starts with, so only the groups
 * of {@code U}'s own prefixes are checked one by one. Templates whose literal prefix has
 * no {@code /} are grouped by scheme, and subscriptions that a custom matcher decides are
 * checked one by one within their scheme.
 * <p>
 * All methods are thread-safe. Matching takes no lock, so concurrent matches never wait
 * for each other; adding and removing lock only the subscriber and the URI concerned. A
 * URI's compiled template or glob is shared by its subscribers, and every trace of a URI
 * is gone when its last subscriber leaves.
 *
 * @param <S> the subscriber type, compared with {@link Object#equals(Object)} and
 * {@link Object#hashCode()}
 * @since 0.1.0
 */
public final class SubscriptionIndex<S> {

	private static final Object[] NO_SUBSCRIBERS = {};

	private final List<SubscriptionMatcher> matchers;

	/** Every subscribed URI; plain ones are looked up here directly. */
	private final ConcurrentHashMap<String, Entry<S>> entries = new ConcurrentHashMap<>();

	/** Templates and patterns by group key, then by URI. */
	private final ConcurrentHashMap<String, ConcurrentHashMap<String, Entry<S>>> groups = new ConcurrentHashMap<>();

	/** Subscriptions decided by custom matchers, by scheme, then by URI. */
	private final ConcurrentHashMap<String, ConcurrentHashMap<String, Entry<S>>> customGroups = new ConcurrentHashMap<>();

	/**
	 * The URIs of each subscriber. Writers lock a subscriber's mapping first, then a
	 * URI's entry, then a group, always in that order, so they cannot deadlock.
	 */
	private final ConcurrentHashMap<S, Set<String>> subscriptionsBySubscriber = new ConcurrentHashMap<>();

	private final AtomicInteger size = new AtomicInteger();

	private final AtomicIntegerArray countsByKind = new AtomicIntegerArray(CoverageKind.values().length);

	/**
	 * Creates an empty index that applies the default rules to every scheme.
	 */
	public SubscriptionIndex() {
		this(List.of());
	}

	/**
	 * Creates an empty index that lets custom matchers decide for the schemes they
	 * support.
	 * @param matchers the matchers; for each scheme the first one that supports it wins
	 */
	public SubscriptionIndex(List<SubscriptionMatcher> matchers) {
		this.matchers = List.copyOf(matchers);
	}

	/**
	 * An empty index with the same matchers, for matching outside the live index (a
	 * replay).
	 * @param <T> its subscriber type
	 * @return the new index
	 */
	public <T> SubscriptionIndex<T> emptyCopy() {
		return new SubscriptionIndex<>(this.matchers);
	}

	/**
	 * Adds a subscription, so that changes it covers match it.
	 * @param subscriber the subscriber
	 * @param subscribedUri the URI subscribed to
	 * @return {@code true} if it was added, {@code false} if the subscriber already had
	 * exactly that URI
	 * @throws IllegalArgumentException if the URI is not valid for the default rules (see
	 * {@link CoverageRules#validate(String)}) and no custom matcher supports its scheme
	 */
	public boolean add(S subscriber, String subscribedUri) {
		Objects.requireNonNull(subscriber, "subscriber must not be null");
		Objects.requireNonNull(subscribedUri, "subscribedUri must not be null");
		Entry<S> existing = this.entries.get(subscribedUri);
		// Compiling outside any lock keeps locks short and lets validation fail early.
		Definition definition = (existing != null) ? existing.definition : define(subscribedUri);
		boolean[] added = new boolean[1];
		this.subscriptionsBySubscriber.compute(subscriber, (key, uris) -> {
			Set<String> subscriptions = (uris != null) ? uris : ConcurrentHashMap.newKeySet();
			if (!subscriptions.contains(subscribedUri)) {
				addToEntry(subscriber, definition);
				subscriptions.add(subscribedUri);
				added[0] = true;
			}
			return subscriptions;
		});
		return added[0];
	}

	/**
	 * Removes a subscription.
	 * @param subscriber the subscriber
	 * @param subscribedUri the URI subscribed to
	 * @return {@code true} if it was removed, {@code false} if the subscriber did not
	 * have it
	 */
	public boolean remove(S subscriber, String subscribedUri) {
		boolean[] removed = new boolean[1];
		this.subscriptionsBySubscriber.computeIfPresent(subscriber, (key, uris) -> {
			if (uris.remove(subscribedUri)) {
				removeFromEntry(subscriber, subscribedUri);
				removed[0] = true;
			}
			return uris.isEmpty() ? null : uris;
		});
		return removed[0];
	}

	/**
	 * Removes every subscription of a subscriber, when it ends.
	 * @param subscriber the subscriber
	 * @return how many subscriptions were removed
	 */
	public int removeAll(S subscriber) {
		int[] removed = new int[1];
		this.subscriptionsBySubscriber.computeIfPresent(subscriber, (key, uris) -> {
			for (String uri : uris) {
				removeFromEntry(subscriber, uri);
				removed[0]++;
			}
			return null;
		});
		return removed[0];
	}

	/**
	 * Finds the subscriptions that cover a changed URI, one per notification to send.
	 * @param changedUri the URI of the resource that changed
	 * @return a new list with one entry per matching subscriber and subscribed URI,
	 * without duplicates, in no particular order
	 * @see #forEachMatch(String, BiConsumer)
	 */
	public List<SubscriptionMatch<S>> match(String changedUri) {
		List<SubscriptionMatch<S>> matches = new ArrayList<>();
		forEachMatch(changedUri,
				(subscriber, subscribedUri) -> matches.add(new SubscriptionMatch<>(subscriber, subscribedUri)));
		return matches;
	}

	/**
	 * Hands each subscription that covers a changed URI to a consumer: the pairs
	 * {@link #match} lists, without a list or an object per match, a subscribed URI's
	 * subscribers one after the other as they are stored.
	 * @param changedUri the URI of the resource that changed
	 * @param consumer takes each matching subscriber with the URI it subscribed to, once
	 * per pair, in no particular order
	 * @return how many pairs the consumer was given
	 */
	public int forEachMatch(String changedUri, BiConsumer<? super S, String> consumer) {
		Matches<S> matches = new Matches<>();
		int pathEnd = CoverageRules.pathEnd(changedUri);
		// The length of the last candidate looked up, as "a//b" yields "a/" twice.
		int lastLength = -1;
		for (int slash = changedUri.indexOf('/'); slash >= 0
				&& slash < pathEnd; slash = changedUri.indexOf('/', slash + 1)) {
			if (slash != lastLength) {
				collectPlain(changedUri.substring(0, slash), matches);
			}
			String directory = changedUri.substring(0, slash + 1);
			collectPlain(directory, matches);
			collectGroup(this.groups, directory, changedUri, matches);
			lastLength = slash + 1;
		}
		if (changedUri.length() != lastLength) {
			collectPlain(changedUri, matches);
		}
		if (!this.groups.isEmpty()) {
			collectGroup(this.groups, "", changedUri, matches);
			String schemeKey = CoverageRules.schemeKey(changedUri);
			if (schemeKey != null) {
				collectGroup(this.groups, schemeKey, changedUri, matches);
			}
		}
		if (!this.customGroups.isEmpty()) {
			String scheme = CoverageRules.schemeOf(changedUri);
			if (scheme != null) {
				collectGroup(this.customGroups, scheme, changedUri, matches);
			}
		}
		return matches.visit(consumer);
	}

	/**
	 * The URIs a subscriber has subscribed to.
	 * @param subscriber the subscriber
	 * @return a snapshot of its subscribed URIs, empty if it has none
	 */
	public Set<String> subscriptionsOf(S subscriber) {
		Set<String> uris = this.subscriptionsBySubscriber.get(subscriber);
		return (uris != null) ? Set.copyOf(uris) : Set.of();
	}

	/**
	 * The number of subscriptions, for metrics.
	 * @return the number of distinct subscriber and URI pairs
	 */
	public int size() {
		return this.size.get();
	}

	/**
	 * The number of subscribers, for metrics.
	 * @return the number of subscribers with at least one subscription
	 */
	public int subscriberCount() {
		return this.subscriptionsBySubscriber.size();
	}

	/**
	 * The number of subscriptions of each kind, for metrics gauges.
	 * @return an unmodifiable map with an entry for every {@link CoverageKind}; each
	 * subscription counts as {@link CoverageRules#kindOf(String)} labels it, custom ones
	 * included
	 */
	public Map<CoverageKind, Integer> countByKind() {
		Map<CoverageKind, Integer> counts = new EnumMap<>(CoverageKind.class);
		for (CoverageKind kind : CoverageKind.values()) {
			counts.put(kind, this.countsByKind.get(kind.ordinal()));
		}
		return Collections.unmodifiableMap(counts);
	}

	/**
	 * The most subscribed URIs, for operators.
	 * @param limit how many at most
	 * @return the URIs and their subscriber counts, most subscribers first
	 */
	public Map<String, Integer> topSubscribedUris(int limit) {
		Map<String, Integer> top = new LinkedHashMap<>();
		this.entries.entrySet()
			.stream()
			.map((entry) -> Map.entry(entry.getKey(), entry.getValue().subscribers.length))
			.filter((entry) -> entry.getValue() > 0)
			.sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
			.limit(limit)
			.forEach((entry) -> top.put(entry.getKey(), entry.getValue()));
		return top;
	}

	/**
	 * Counts the internal entries, so tests can check that nothing leaks.
	 */
	InternalCounts internalCounts() {
		int subscriberSlots = 0;
		for (Entry<S> entry : this.entries.values()) {
			subscriberSlots += entry.subscribers.length;
		}
		int reverseEntries = 0;
		for (Set<String> uris : this.subscriptionsBySubscriber.values()) {
			reverseEntries += uris.size();
		}
		return new InternalCounts(this.entries.size(), subscriberSlots, this.groups.size(),
				this.groups.values().stream().mapToInt(Map::size).sum(), this.customGroups.size(),
				this.customGroups.values().stream().mapToInt(Map::size).sum(), this.subscriptionsBySubscriber.size(),
				reverseEntries);
	}

	private Definition define(String uri) {
		if (!this.matchers.isEmpty()) {
			String scheme = CoverageRules.schemeOf(uri);
			if (scheme != null) {
				for (SubscriptionMatcher matcher : this.matchers) {
					if (matcher.supportsScheme(scheme)) {
						return new Definition(uri, CoverageRules.kindOf(uri), null, matcher, scheme);
					}
				}
			}
		}
		Rule rule = CoverageRules.compile(uri);
		return new Definition(uri, rule.kind(), rule, null, rule.groupKey());
	}

	/** Called with the subscriber's mapping locked. */
	private void addToEntry(S subscriber, Definition definition) {
		this.entries.compute(definition.uri, (key, entry) -> {
			Entry<S> target = entry;
			if (target == null) {
				target = new Entry<>(definition);
				register(target);
			}
			target.addSubscriber(subscriber);
			return target;
		});
		this.size.incrementAndGet();
		this.countsByKind.incrementAndGet(definition.kind.ordinal());
	}

	/** Called with the subscriber's mapping locked. */
	private void removeFromEntry(S subscriber, String uri) {
		this.entries.computeIfPresent(uri, (key, entry) -> {
			if (entry.removeSubscriber(subscriber)) {
				this.size.decrementAndGet();
				this.countsByKind.decrementAndGet(entry.definition.kind.ordinal());
			}
			if (entry.subscribers.length == 0) {
				unregister(entry);
				return null;
			}
			return entry;
		});
	}

	/** Called with the entry's URI locked. */
	private void register(Entry<S> entry) {
		Map<String, ConcurrentHashMap<String, Entry<S>>> groups = groupsOf(entry.definition);
		String groupKey = entry.definition.groupKey;
		if (groups != null && groupKey != null) {
			groups.compute(groupKey, (key, group) -> {
				ConcurrentHashMap<String, Entry<S>> target = (group != null) ? group : new ConcurrentHashMap<>();
				target.put(entry.definition.uri, entry);
				return target;
			});
		}
	}

	/** Called with the entry's URI locked. */
	private void unregister(Entry<S> entry) {
		Map<String, ConcurrentHashMap<String, Entry<S>>> groups = groupsOf(entry.definition);
		String groupKey = entry.definition.groupKey;
		if (groups != null && groupKey != null) {
			groups.computeIfPresent(groupKey, (key, group) -> {
				group.remove(entry.definition.uri, entry);
				return group.isEmpty() ? null : group;
			});
		}
	}

	private @Nullable Map<String, ConcurrentHashMap<String, Entry<S>>> groupsOf(Definition definition) {
		if (definition.matcher != null) {
			return this.customGroups;
		}
		return (definition.groupKey != null) ? this.groups : null;
	}

	private void collectPlain(String candidate, Matches<S> matches) {
		Entry<S> entry = this.entries.get(candidate);
		// Being found under one of the candidates is what makes a plain URI cover the
		// change.
		if (entry != null && entry.definition.isIndexedPlain()) {
			matches.collect(entry);
		}
	}

	private void collectGroup(Map<String, ConcurrentHashMap<String, Entry<S>>> groups, String key, String changedUri,
			Matches<S> matches) {
		Map<String, Entry<S>> group = groups.get(key);
		if (group != null) {
			for (Entry<S> entry : group.values()) {
				if (entry.definition.covers(changedUri)) {
					matches.collect(entry);
				}
			}
		}
	}

	/**
	 * The matches of one change: each subscribed URI that covers it, with its subscribers
	 * as they were when it was collected.
	 */
	private static final class Matches<S> {

		private final Map<String, Object[]> byUri = new LinkedHashMap<>();

		void collect(Entry<S> entry) {
			Object[] earlier = this.byUri.putIfAbsent(entry.definition.uri, entry.subscribers);
			if (earlier != null) {
				// Collected twice (it left a group and came back while the group was
				// iterated): once, with whoever was in either collection.
				Set<Object> both = new LinkedHashSet<>(Arrays.asList(earlier));
				both.addAll(Arrays.asList(entry.subscribers));
				this.byUri.put(entry.definition.uri, both.toArray());
			}
		}

		@SuppressWarnings("unchecked")
		int visit(BiConsumer<? super S, String> consumer) {
			int count = 0;
			for (Map.Entry<String, Object[]> match : this.byUri.entrySet()) {
				for (Object subscriber : match.getValue()) {
					consumer.accept((S) subscriber, match.getKey());
				}
				count += match.getValue().length;
			}
			return count;
		}

	}

	/**
	 * Internal entry counts, to check that the index does not leak.
	 *
	 * @param entries the distinct subscribed URIs
	 * @param subscriberSlots the subscribers summed over all URIs
	 * @param groups the template and pattern groups
	 * @param groupedEntries the URIs in template and pattern groups
	 * @param customGroups the schemes with custom-matched subscriptions
	 * @param customEntries the URIs decided by custom matchers
	 * @param subscribers the subscribers in the reverse map
	 * @param reverseEntries the URIs summed over all subscribers in the reverse map
	 */
	record InternalCounts(int entries, int subscriberSlots, int groups, int groupedEntries, int customGroups,
			int customEntries, int subscribers, int reverseEntries) {

	}

	/**
	 * How one subscribed URI is matched, compiled once and shared by all its subscribers.
	 */
	private static final class Definition {

		final String uri;

		final CoverageKind kind;

		final @Nullable Rule rule;

		final @Nullable SubscriptionMatcher matcher;

		/**
		 * The key of the template, pattern or custom group; null for an indexed plain
		 * URI.
		 */
		final @Nullable String groupKey;

		Definition(String uri, CoverageKind kind, @Nullable Rule rule, @Nullable SubscriptionMatcher matcher,
				@Nullable String groupKey) {
			this.uri = uri;
			this.kind = kind;
			this.rule = rule;
			this.matcher = matcher;
			this.groupKey = groupKey;
		}

		boolean isIndexedPlain() {
			return this.groupKey == null;
		}

		boolean covers(String changedUri) {
			SubscriptionMatcher matcher = this.matcher;
			if (matcher != null) {
				return matcher.covers(this.uri, changedUri);
			}
			Rule rule = this.rule;
			return rule != null && rule.covers(changedUri);
		}

	}

	/**
	 * A subscribed URI and its subscribers. A change it covers hands them over as they
	 * are stored, with the URI once: a match object per subscriber, even one made when it
	 * subscribed, was one more object for every notification to read from memory. The
	 * array is copied on write, with the URI's mapping locked, so that matching reads a
	 * consistent snapshot without a lock.
	 */
	private static final class Entry<S> {

		final Definition definition;

		volatile Object[] subscribers = NO_SUBSCRIBERS;

		Entry(Definition definition) {
			this.definition = definition;
		}

		void addSubscriber(S subscriber) {
			Object[] current = this.subscribers;
			Object[] next = Arrays.copyOf(current, current.length + 1);
			next[current.length] = subscriber;
			this.subscribers = next;
		}

		boolean removeSubscriber(S subscriber) {
			Object[] current = this.subscribers;
			for (int index = 0; index < current.length; index++) {
				if (current[index].equals(subscriber)) {
					Object[] next = new Object[current.length - 1];
					System.arraycopy(current, 0, next, 0, index);
					System.arraycopy(current, index + 1, next, index, next.length - index);
					this.subscribers = next;
					return true;
				}
			}
			return false;
		}

	}

}
