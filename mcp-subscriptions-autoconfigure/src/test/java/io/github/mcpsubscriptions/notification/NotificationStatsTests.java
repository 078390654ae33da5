package io.github.mcpsubscriptions.notification;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsubscriptions.test.MutableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A written notification is counted; its latency is measured only for a listener, so that
 * without metrics no notification reads the clock (#29).
 */
class NotificationStatsTests {

	private static final Instant PUBLISHED = Instant.parse("2026-01-01T00:00:00Z");

	private final MutableClock clock = new MutableClock(PUBLISHED.plusMillis(250));

	@Test
	void withoutALatencyListenerTheClockIsNotRead() {
		NotificationStats stats = new NotificationStats();
		stats.sent(PUBLISHED, this.clock);
		stats.sent(PUBLISHED, this.clock);
		assertThat(stats.getSent()).isEqualTo(2);
		assertThat(this.clock.reads()).isZero();
	}

	@Test
	void aLatencyListenerIsToldTheTimeFromPublicationToWrite() {
		NotificationStats stats = new NotificationStats();
		List<Duration> latencies = new ArrayList<>();
		stats.setLatencyListener(latencies::add);
		stats.sent(PUBLISHED, this.clock);
		assertThat(stats.getSent()).isOne();
		assertThat(latencies).containsExactly(Duration.ofMillis(250));
	}

}
