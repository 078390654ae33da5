package io.github.mcpsubscriptions.events;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * Webhook subscriptions in the memory of one node: lost on restart, which finite TTLs
 * allow (clients resubscribe at their next refresh); so it never grants no expiry.
 */
final class InMemoryWebhookSubscriptionStore implements WebhookSubscriptionStore {

	private final Map<String, WebhookSubscription> subscriptions = new ConcurrentHashMap<>();

	private final Map<String, Instant> verifications = new ConcurrentHashMap<>();

	@Override
	public @Nullable WebhookSubscription get(String id, Instant now) {
		WebhookSubscription subscription = this.subscriptions.get(id);
		return (subscription != null && !subscription.expired(now)) ? subscription : null;
	}

	@Override
	public void put(WebhookSubscription subscription) {
		this.subscriptions.put(subscription.id(), subscription);
	}

	@Override
	public boolean remove(String id) {
		return this.subscriptions.remove(id) != null;
	}

	@Override
	public Collection<WebhookSubscription> all(Instant now) {
		return this.subscriptions.values().stream().filter((subscription) -> !subscription.expired(now)).toList();
	}

	@Override
	public List<String> removeExpired(Instant now) {
		List<String> removed = new ArrayList<>();
		for (WebhookSubscription subscription : this.subscriptions.values()) {
			if (subscription.expired(now) && this.subscriptions.remove(subscription.id(), subscription)) {
				removed.add(subscription.id());
			}
		}
		this.verifications.values().removeIf((until) -> !now.isBefore(until));
		return removed;
	}

	@Override
	public int countOf(String principal, Instant now) {
		return (int) this.subscriptions.values()
			.stream()
			.filter((subscription) -> subscription.principal().equals(principal) && !subscription.expired(now))
			.count();
	}

	@Override
	public boolean isVerified(String principal, String url, Instant now) {
		Instant until = this.verifications.get(key(principal, url));
		return until != null && now.isBefore(until);
	}

	@Override
	public void verified(String principal, String url, Instant until) {
		this.verifications.put(key(principal, url), until);
	}

	private static String key(String principal, String url) {
		// The principal's length first, so that no name and URL can pass for another
		// pair.
		return principal.length() + ":" + principal + ":" + url;
	}

}
