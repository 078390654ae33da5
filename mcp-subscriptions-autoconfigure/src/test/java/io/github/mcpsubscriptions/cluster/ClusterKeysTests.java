package io.github.mcpsubscriptions.cluster;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The keys one operation touches together are in one slot of a Redis Cluster (as Redis
 * Cluster computes it), so that every multi-key command and script can run there.
 */
class ClusterKeysTests {

	private final ClusterKeys keys = new ClusterKeys("mcp:");

	@Test
	void aSessionsKeysShareASlot() {
		// TOUCH and the DEL that ends a session.
		assertThat(SlotHash.getSlot(this.keys.subscriptions("s-1")))
			.isEqualTo(SlotHash.getSlot(this.keys.session("s-1")));
	}

	@Test
	void theCountsShareTheSlotOfTheSessionsByExpiry() {
		// FORGET and COUNT.
		int slot = SlotHash.getSlot(this.keys.sessions());
		assertThat(SlotHash.getSlot(this.keys.subscriptionCounts())).isEqualTo(slot);
		assertThat(SlotHash.getSlot(this.keys.subscriptionTotal())).isEqualTo(slot);
	}

	@Test
	void theEventLogAndItsBookkeepingShareASlot() {
		// Every script of the event log.
		assertThat(SlotHash.getSlot(this.keys.eventsMeta())).isEqualTo(SlotHash.getSlot(this.keys.events()));
	}

	@Test
	void everyKeyOfWebhooksSharesASlot() {
		// PUT, REMOVE and ALL touch a subscription, its lease and the indexes together.
		int slot = SlotHash.getSlot(this.keys.webhooks());
		assertThat(SlotHash.getSlot(this.keys.webhook("sub_1"))).isEqualTo(slot);
		assertThat(SlotHash.getSlot(this.keys.webhookLease("sub_1"))).isEqualTo(slot);
		assertThat(SlotHash.getSlot(this.keys.principalWebhooks("a}b{c"))).isEqualTo(slot);
		assertThat(SlotHash.getSlot(this.keys.webhookVerification("a}b{c", "https://x/{y}"))).isEqualTo(slot);
	}

	@Test
	void aPrincipalsKeyIsOneWellFormedKeyWhateverItsName() {
		assertThat(this.keys.principalSessions("a}b{c:d")).startsWith("mcp:principal:{")
			.endsWith("}")
			.doesNotContain("a}b");
		assertThat(this.keys.principalSessions("alice")).isNotEqualTo(this.keys.principalSessions("bob"));
	}

}
