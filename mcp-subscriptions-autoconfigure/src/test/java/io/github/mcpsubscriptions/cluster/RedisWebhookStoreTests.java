package io.github.mcpsubscriptions.cluster;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;

import io.github.mcpsubscriptions.events.McpWebhookStore.Stored;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cluster's webhook store on the real Redis: subscriptions indexed per principal and
 * expiring in Redis at their TTL, verifications likewise, delivery states that never
 * bring back a removed subscription, and leases that exactly one node holds, renews and
 * releases.
 */
class RedisWebhookStoreTests {

	private final RedisTestSupport redis = new RedisTestSupport(5);

	private final ClusterKeys keys = new ClusterKeys(this.redis.prefix());

	private final RedisWebhookStore a = new RedisWebhookStore(this.redis.redis(), this.keys, "a", new ClusterStats());

	private final RedisWebhookStore b = new RedisWebhookStore(this.redis.redis(), this.keys, "b", new ClusterStats());

	private final Principal alice = () -> "alice";

	@AfterEach
	void close() {
		this.redis.close();
	}

	@Test
	void aSubscriptionIsSharedCountedPerPrincipalAndRemovedWithItsState() {
		Instant now = Instant.now();
		this.a.put("sub_1", "alice", this.alice, "{\"n\":1}", now.plus(Duration.ofMinutes(5)));
		this.a.put("sub_2", "alice", this.alice, "{\"n\":2}", now.plus(Duration.ofMinutes(5)));
		this.a.put("sub_3", "bob", () -> "bob", "{\"n\":3}", null);
		this.a.delivered("sub_1", "state-1");
		Stored onB = this.b.get("sub_1");
		assertThat(onB).isNotNull();
		assertThat(onB.data()).isEqualTo("{\"n\":1}");
		assertThat(onB.state()).isEqualTo("state-1");
		assertThat(onB.principal().getName()).as("a principal that is not Serializable travels as its name")
			.isEqualTo("alice");
		assertThat(this.b.countOf("alice", now)).isEqualTo(2);
		assertThat(this.b.all(now)).extracting(Stored::id).containsExactlyInAnyOrder("sub_1", "sub_2", "sub_3");
		// A refresh replaces the record and keeps the state.
		this.b.put("sub_1", "alice", null, "{\"n\":10}", now.plus(Duration.ofMinutes(5)));
		assertThat(this.a.get("sub_1").state()).isEqualTo("state-1");
		assertThat(this.a.get("sub_1").data()).isEqualTo("{\"n\":10}");
		assertThat(this.a.lease("sub_1", Duration.ofMinutes(1))).isTrue();
		this.b.delivered("sub_1", "behind");
		assertThat(this.a.get("sub_1").state()).as("only the lease holder records how far it delivered")
			.isEqualTo("state-1");
		this.a.delivered("sub_1", "state-2");
		assertThat(this.b.get("sub_1").state()).isEqualTo("state-2");
		assertThat(this.b.orphans(now)).as("no node delivers them")
			.extracting(Stored::id)
			.containsExactlyInAnyOrder("sub_2", "sub_3");

		assertThat(this.b.remove("sub_1")).isTrue();
		assertThat(this.b.remove("sub_1")).isFalse();
		assertThat(this.a.get("sub_1")).isNull();
		assertThat(this.a.countOf("alice", now)).isEqualTo(1);
		assertThat(this.b.lease("sub_1", Duration.ofMinutes(1))).as("the lease went with it").isTrue();
		this.b.release("sub_1");
		// A late delivery state brings nothing back.
		this.a.delivered("sub_1", "late");
		assertThat(this.a.get("sub_1")).isNull();
		assertThat(this.redis.redis().hasKey(this.keys.webhook("sub_1"))).isFalse();
	}

	@Test
	void aSubscriptionAndAVerificationExpireInRedisAtTheirTtl() {
		Instant now = Instant.now();
		this.a.put("sub_1", "alice", this.alice, "{}", now.plusMillis(300));
		this.a.verified("alice", "https://example.com/hook", now.plusMillis(300));
		assertThat(this.b.isVerified("alice", "https://example.com/hook", now)).isTrue();
		assertThat(this.b.isVerified("bob", "https://example.com/hook", now)).isFalse();
		assertThat(this.redis.redis().getExpire(this.keys.webhook("sub_1"))).isNotNegative();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.b.get("sub_1") == null);
		Instant later = Instant.now();
		assertThat(this.b.isVerified("alice", "https://example.com/hook", later)).isFalse();
		assertThat(this.b.countOf("alice", later)).isZero();
		assertThat(this.b.all(later)).isEmpty();
		assertThat(this.b.removeExpired(later)).containsExactly("sub_1");
		assertThat(this.b.removeExpired(later)).isEmpty();
	}

	@Test
	void oneNodeHoldsALeaseRenewsItAndReleasesIt() {
		assertThat(this.a.lease("sub_1", Duration.ofMillis(500))).isTrue();
		assertThat(this.b.lease("sub_1", Duration.ofMillis(500))).isFalse();
		assertThat(this.a.lease("sub_1", Duration.ofSeconds(30))).as("renewed by its holder").isTrue();
		assertThat(this.redis.redis().getExpire(this.keys.webhookLease("sub_1"))).isGreaterThan(1);
		this.b.release("sub_1");
		assertThat(this.b.lease("sub_1", Duration.ofMillis(500))).as("only its holder releases it").isFalse();
		this.a.release("sub_1");
		assertThat(this.b.lease("sub_1", Duration.ofMillis(300))).isTrue();
		// Not renewed: it lapses, and another node takes it.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.a.lease("sub_1", Duration.ofSeconds(30)));
		assertThat(this.b.lease("sub_1", Duration.ofSeconds(30))).isFalse();
		// A node restarted under the same name holds none of the leases of before.
		RedisWebhookStore restarted = new RedisWebhookStore(this.redis.redis(), this.keys, "a", new ClusterStats());
		assertThat(restarted.lease("sub_1", Duration.ofSeconds(30))).isFalse();
	}

}
