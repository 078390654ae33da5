package io.github.mcpsubscriptions.events;

import java.time.Instant;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A webhook subscription as stored: its key ({@code principal}, {@code url},
 * {@code name}, {@code arguments}), the id derived from it, the client's secret (and the
 * one it replaced, still signed with until {@code previousSecretUntil}), and its expiry.
 *
 * @param id the id derived from the key, sent as {@code X-MCP-Subscription-Id}
 * @param principal the name of the principal that subscribed
 * @param url the callback URL
 * @param name the event type's name
 * @param arguments the arguments, as sent (canonical JSON of them is in the key)
 * @param secret the secret deliveries are signed with
 * @param previousSecret the secret a refresh replaced, or {@code null}
 * @param previousSecretUntil until when the previous secret signs too
 * @param refreshBefore when it expires, or {@code null} for never
 * @param active whether delivery runs; {@code false} once suspended after failures
 */
record WebhookSubscription(String id, String principal, String url, String name, JsonNode arguments, String secret,
		@Nullable String previousSecret, @Nullable Instant previousSecretUntil, @Nullable Instant refreshBefore,
		boolean active) {

	boolean expired(Instant now) {
		return this.refreshBefore != null && !now.isBefore(this.refreshBefore);
	}

	@Override
	public String toString() {
		// Never the secrets.
		return "WebhookSubscription[" + this.id + " of " + this.name + " for " + this.principal + "]";
	}

}
