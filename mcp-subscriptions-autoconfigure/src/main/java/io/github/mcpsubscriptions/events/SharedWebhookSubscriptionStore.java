package io.github.mcpsubscriptions.events;

import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsubscriptions.events.McpWebhookStore.Stored;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Webhook subscriptions in a {@link McpWebhookStore} the nodes of a cluster share: each
 * written as a JSON record, so that they survive a restart of every node; and the lease
 * that makes one node deliver each, held while this node renews it (at most every
 * {@code renewInterval}, from the scans of delivery), lost to another node when it has
 * not been renewed for {@code leaseDuration}.
 */
final class SharedWebhookSubscriptionStore implements WebhookSubscriptionStore {

	private static final Log logger = LogFactory.getLog(SharedWebhookSubscriptionStore.class);

	private final McpWebhookStore store;

	private final JsonRpcCodec codec;

	private final Duration leaseDuration;

	private final long renewNanos;

	private final long leaseNanos;

	/** When this node last took or renewed each lease it holds (nano time). */
	private final Map<String, Long> leases = new ConcurrentHashMap<>();

	SharedWebhookSubscriptionStore(McpWebhookStore store, JsonRpcCodec codec, Duration leaseDuration,
			Duration renewInterval) {
		if (renewInterval.isNegative() || renewInterval.isZero() || renewInterval.compareTo(leaseDuration) >= 0) {
			throw new IllegalArgumentException("mcp.events.webhooks.lease-renew-interval (" + renewInterval
					+ ") must be positive and shorter than mcp.events.webhooks.lease-duration (" + leaseDuration + ")");
		}
		this.store = store;
		this.codec = codec;
		this.leaseDuration = leaseDuration;
		this.renewNanos = renewInterval.toNanos();
		this.leaseNanos = leaseDuration.toNanos();
	}

	@Override
	public @Nullable WebhookSubscription get(String id, Instant now) {
		Stored stored = this.store.get(id);
		WebhookSubscription subscription = (stored != null) ? read(stored) : null;
		return (subscription != null && !subscription.expired(now)) ? subscription : null;
	}

	@Override
	public void put(WebhookSubscription subscription) {
		write(subscription, null);
	}

	@Override
	public void put(WebhookSubscription subscription, Principal principal) {
		write(subscription, principal);
	}

	private void write(WebhookSubscription subscription, @Nullable Principal principal) {
		Map<String, Object> record = new LinkedHashMap<>();
		record.put("id", subscription.id());
		record.put("principal", subscription.principal());
		record.put("url", subscription.url());
		record.put("name", subscription.name());
		record.put("arguments", subscription.arguments());
		record.put("secret", subscription.secret());
		record.put("previousSecret", subscription.previousSecret());
		record.put("previousSecretUntil", text(subscription.previousSecretUntil()));
		record.put("refreshBefore", text(subscription.refreshBefore()));
		record.put("active", subscription.active());
		this.store.put(subscription.id(), subscription.principal(), principal, this.codec.writeAsString(record),
				subscription.refreshBefore());
	}

	@Override
	public boolean remove(String id) {
		this.leases.remove(id);
		return this.store.remove(id);
	}

	@Override
	public Collection<WebhookSubscription> all(Instant now) {
		List<WebhookSubscription> all = new ArrayList<>();
		for (Stored stored : this.store.all(now)) {
			WebhookSubscription subscription = read(stored);
			if (subscription != null && !subscription.expired(now)) {
				all.add(subscription);
			}
		}
		return all;
	}

	@Override
	public List<String> removeExpired(Instant now) {
		List<String> expired = this.store.removeExpired(now);
		expired.forEach(this.leases::remove);
		return expired;
	}

	@Override
	public int countOf(String principal, Instant now) {
		return this.store.countOf(principal, now);
	}

	@Override
	public boolean isVerified(String principal, String url, Instant now) {
		return this.store.isVerified(principal, url, now);
	}

	@Override
	public void verified(String principal, String url, Instant until) {
		this.store.verified(principal, url, until);
	}

	@Override
	public boolean delivers(String id) {
		Long renewed = this.leases.get(id);
		long now = System.nanoTime();
		if (renewed != null && now - renewed < this.renewNanos) {
			return true;
		}
		if (this.store.lease(id, this.leaseDuration)) {
			this.leases.put(id, now);
			return true;
		}
		this.leases.remove(id);
		return false;
	}

	@Override
	public boolean stillDelivers(String id) {
		// Taken before the call that took or renewed the lease: never later than its
		// expiry in the store.
		Long renewed = this.leases.get(id);
		return renewed != null && System.nanoTime() - renewed < this.leaseNanos;
	}

	@Override
	public boolean isShared() {
		return true;
	}

	@Override
	public @Nullable Handover handover(String id, Instant now) {
		Stored stored = this.store.get(id);
		WebhookSubscription subscription = (stored != null) ? read(stored) : null;
		if (stored == null || subscription == null || subscription.expired(now)) {
			return null;
		}
		Principal principal = stored.principal();
		return new Handover(subscription, principal, state(stored.state()));
	}

	@Override
	public List<Handover> orphans(Instant now) {
		List<Handover> orphans = new ArrayList<>();
		for (Stored stored : this.store.orphans(now)) {
			WebhookSubscription subscription = read(stored);
			if (subscription != null && !subscription.expired(now)) {
				orphans.add(new Handover(subscription, stored.principal(), state(stored.state())));
			}
		}
		return orphans;
	}

	@Override
	public void delivered(String id, DeliveryState state) {
		Map<String, Object> record = new LinkedHashMap<>();
		record.put("cursor", state.cursor());
		record.put("lastDeliveryAt", state.lastDeliveryAt());
		record.put("lastError", state.lastError());
		record.put("failedSince", state.failedSince());
		this.store.delivered(id, this.codec.writeAsString(record));
	}

	@Override
	public void release(String id) {
		if (this.leases.remove(id) != null) {
			this.store.release(id);
		}
	}

	private @Nullable DeliveryState state(@Nullable String text) {
		if (text == null) {
			return null;
		}
		try {
			JsonNode state = this.codec.parse(text.getBytes(StandardCharsets.UTF_8));
			return new DeliveryState(state.get("cursor").stringValue(), string(state, "lastDeliveryAt"),
					string(state, "lastError"), string(state, "failedSince"));
		}
		catch (RuntimeException ex) {
			logger.warn("A webhook subscription's delivery state could not be read; delivery resumes from now", ex);
			return null;
		}
	}

	private @Nullable WebhookSubscription read(Stored stored) {
		try {
			JsonNode record = this.codec.parse(stored.data().getBytes(StandardCharsets.UTF_8));
			return new WebhookSubscription(record.get("id").stringValue(), record.get("principal").stringValue(),
					record.get("url").stringValue(), record.get("name").stringValue(), record.get("arguments"),
					record.get("secret").stringValue(), string(record, "previousSecret"),
					instant(string(record, "previousSecretUntil")), instant(string(record, "refreshBefore")),
					record.get("active").booleanValue());
		}
		catch (RuntimeException ex) {
			// Another version's record (a rolling upgrade), or a corrupt one: as if
			// absent.
			logger.warn("The webhook subscription " + stored.id() + " could not be read and is ignored", ex);
			return null;
		}
	}

	private static @Nullable String string(JsonNode node, String field) {
		JsonNode value = node.get(field);
		return (value != null && value.isString()) ? value.stringValue() : null;
	}

	private static @Nullable String text(@Nullable Instant instant) {
		return (instant != null) ? instant.toString() : null;
	}

	private static @Nullable Instant instant(@Nullable String text) {
		return (text != null) ? Instant.parse(text) : null;
	}

}
