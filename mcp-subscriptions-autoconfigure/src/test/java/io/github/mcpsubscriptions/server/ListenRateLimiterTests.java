package io.github.mcpsubscriptions.server;

import java.time.Duration;
import java.time.Instant;

import io.github.mcpsubscriptions.test.MutableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The listen rate limit's token buckets, on a controllable clock.
 */
class ListenRateLimiterTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	@Test
	void aBurstUpToTheLimitThenTheTimeUntilTheNextToken() {
		ListenRateLimiter limiter = new ListenRateLimiter(3, Duration.ofMinutes(1), 100, this.clock);
		for (int i = 0; i < 3; i++) {
			assertThat(limiter.acquire("a")).isZero();
		}
		assertThat(limiter.acquire("a")).isEqualTo(Duration.ofSeconds(20));
		this.clock.advance(Duration.ofSeconds(5));
		assertThat(limiter.acquire("a")).isEqualTo(Duration.ofSeconds(15));
		this.clock.advance(Duration.ofSeconds(15));
		assertThat(limiter.acquire("a")).isZero();
		assertThat(limiter.acquire("a")).isPositive();
	}

	@Test
	void clientsHaveTheirOwnBuckets() {
		ListenRateLimiter limiter = new ListenRateLimiter(1, Duration.ofMinutes(1), 100, this.clock);
		assertThat(limiter.acquire("a")).isZero();
		assertThat(limiter.acquire("a")).isPositive();
		assertThat(limiter.acquire("b")).isZero();
	}

	@Test
	void aClientThatReconnectsNowAndThenIsNeverLimited() {
		ListenRateLimiter limiter = new ListenRateLimiter(60, Duration.ofMinutes(1), 100, this.clock);
		for (int blip = 0; blip < 1000; blip++) {
			// A network blip: the stream breaks and the client re-listens, twice in a row
			// at worst.
			assertThat(limiter.acquire("a")).isZero();
			assertThat(limiter.acquire("a")).isZero();
			this.clock.advance(Duration.ofSeconds(3));
		}
	}

	@Test
	void tracksABoundedNumberOfClients() {
		ListenRateLimiter limiter = new ListenRateLimiter(1, Duration.ofMinutes(1), 100, this.clock);
		for (int i = 0; i < 10_000; i++) {
			limiter.acquire("address:" + i);
		}
		assertThat(limiter.getTrackedClients()).isEqualTo(100);
	}

	@Test
	void theMostRecentlySeenClientsAreKept() {
		ListenRateLimiter limiter = new ListenRateLimiter(1, Duration.ofMinutes(1), 2, this.clock);
		assertThat(limiter.acquire("storm")).isZero();
		limiter.acquire("a");
		assertThat(limiter.acquire("storm")).as("seen again: still tracked").isPositive();
		limiter.acquire("b");
		assertThat(limiter.acquire("storm")).as("still among the two most recent").isPositive();
	}

	@Test
	void zeroMeansNoLimit() {
		ListenRateLimiter limiter = new ListenRateLimiter(0, Duration.ofMinutes(1), 1, this.clock);
		for (int i = 0; i < 1000; i++) {
			assertThat(limiter.acquire("a")).isZero();
		}
		assertThat(limiter.getTrackedClients()).isZero();
	}

}
