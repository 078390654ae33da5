package io.github.mcpsubscriptions.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.mcpsubscriptions.session.McpSession;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis session store against a real Redis.
 */
class RedisSessionStoreTests {

	private final RedisTestSupport redis = new RedisTestSupport(2);

	private final ClusterKeys keys = new ClusterKeys(this.redis.prefix());

	private final ClusterStats stats = new ClusterStats();

	private final RedisChangeLog log = new RedisChangeLog(this.redis.redis(), this.keys, 100, Duration.ofMillis(100),
			"a", this.stats);

	@AfterEach
	void close() {
		this.redis.close();
	}

	@Test
	void replaceIsOneStepNotALookupFollowedByASave() {
		// A lookup then a save leaves a window in which DELETE can end the session and
		// the
		// save bring it back (the default of SessionStore.replace).
		RedisSessionStore store = new RedisSessionStore(this.redis.redis(), this.keys, this.log, Duration.ofMinutes(5),
				Clock.systemUTC(), this.stats) {

			@Override
			public @Nullable McpSession find(String id) {
				throw new AssertionError("replace looked the session up");
			}

		};
		McpSession session = session("s1");
		store.save(session);
		session.setLastAccessedAt(session.getCreatedAt().plusSeconds(1));
		assertThat(store.replace(session)).isTrue();
		assertThat(this.redis.redis().opsForHash().get(this.keys.session("s1"), "a"))
			.isEqualTo(Long.toString(session.getLastAccessedAt().toEpochMilli()));
	}

	@Test
	void anEndedSessionIsNotBroughtBackByReplace() {
		RedisSessionStore store = store();
		McpSession session = session("s2");
		store.save(session);
		assertThat(store.remove("s2")).isNotNull();
		assertThat(store.replace(session)).isFalse();
		assertThat(this.redis.keys()).as("nothing of the session is left but the log").containsOnly(this.keys.log());
		assertThat(store.countByPrincipal("alice")).isZero();
	}

	@Test
	void replaceRacingTheEndNeverBringsTheSessionBackNorLeavesItCounted() throws Exception {
		RedisSessionStore store = store();
		ExecutorService pool = Executors.newFixedThreadPool(2);
		try {
			for (int round = 0; round < 400; round++) {
				McpSession session = session("race-" + round);
				store.save(session);
				session.setLastAccessedAt(session.getCreatedAt().plusMillis(1));
				CountDownLatch start = new CountDownLatch(1);
				Future<Boolean> replaced = pool.submit(() -> {
					start.await();
					return store.replace(session);
				});
				Future<McpSession> removed = pool.submit(() -> {
					start.await();
					return store.remove(session.getId());
				});
				start.countDown();
				replaced.get(10, TimeUnit.SECONDS);
				assertThat(removed.get(10, TimeUnit.SECONDS)).as("round %d: the end", round).isNotNull();
				String id = session.getId();
				assertThat(this.redis.redis().hasKey(this.keys.session(id))).as("round %d: brought back", round)
					.isFalse();
				assertThat(this.redis.redis().opsForZSet().score(this.keys.sessions(), id))
					.as("round %d: still counted", round)
					.isNull();
				assertThat(this.redis.redis().opsForZSet().score(this.keys.principalSessions("alice"), id))
					.as("round %d: still counted for its principal", round)
					.isNull();
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(store.count()).isZero();
		assertThat(store.countByPrincipal("alice")).isZero();
	}

	private RedisSessionStore store() {
		return new RedisSessionStore(this.redis.redis(), this.keys, this.log, Duration.ofMinutes(5), Clock.systemUTC(),
				this.stats);
	}

	private static McpSession session(String id) {
		return new McpSession(id, "2025-11-25", JsonNodeFactory.instance.objectNode(),
				JsonNodeFactory.instance.objectNode(), "alice", Instant.now(), 1);
	}

}
