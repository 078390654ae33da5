package io.github.mcpsubscriptions.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.notification.CorrelationMode;
import io.github.mcpsubscriptions.notification.InMemoryResourceChangeFeed;
import io.github.mcpsubscriptions.notification.NotificationEngine;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.github.mcpsubscriptions.notification.Subscriber;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.test.ManualDeliveryScheduler;
import io.github.mcpsubscriptions.test.MutableClock;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class McpHealthIndicatorTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private final InMemoryResourceChangeFeed feed = new InMemoryResourceChangeFeed();

	private final NotificationEngine dispatcher = NotificationEngine
		.builder(this.feed, ResourceAccessPolicy.PERMIT_ALL, new JsonRpcCodec(),
				new ManualDeliveryScheduler(this.clock))
		.correlation(CorrelationMode.ALWAYS)
		.clock(this.clock)
		.outboxCapacity(4)
		.build();

	@Test
	void upWithOutboxSaturation() {
		Subscriber subscriber = this.dispatcher.register("s-1", null, true, Map.of());
		this.dispatcher.subscribe(subscriber, "a://x");
		for (int i = 0; i < 4; i++) {
			this.feed.publish(new ResourceChange("a://x/" + i, Map.of(), this.clock.instant()));
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> this.dispatcher.getBacklog() == 0);
		Health health = new McpHealthIndicator(this.dispatcher, 100).health(true);
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("saturatedOutboxes", 1)
			.containsEntry("fullestOutbox", "100%")
			.containsEntry("subscribers", 1);
	}

	@Test
	void downWhenDispatcherFallsBehind() {
		Health health = new McpHealthIndicator(this.dispatcher, -1).health(true);
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("dispatchBacklog", 0);
	}

}
