package io.github.mcpsubscriptions.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsubscriptions.notification.ResourceChange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The change log's reading thread, on a Redis server of the test's own (so that its
 * connection and command counts are this test's alone).
 */
class RedisChangeLogTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private RedisServerProcess server;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	private RedisChangeLog log;

	@BeforeEach
	void start() throws Exception {
		this.server = new RedisServerProcess();
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.server.port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.redis = new StringRedisTemplate(this.connectionFactory);
		this.log = new RedisChangeLog(this.redis, new ClusterKeys("log-test:"), 1000, Duration.ofMillis(20), "a",
				new ClusterStats());
	}

	@AfterEach
	void stop() throws Exception {
		this.log.stop();
		this.connectionFactory.destroy();
		this.server.close();
	}

	@Test
	void readsTheLogOnOneConnectionNotOnePerRead() {
		long connectionsBefore = stat("stats", "total_connections_received");
		this.log.start();
		await().atMost(WAIT).until(() -> stat("commandstats", "cmdstat_xread") >= 50);
		long opened = stat("stats", "total_connections_received") - connectionsBefore;
		assertThat(opened).as("connections opened for 50 blocking reads").isLessThanOrEqualTo(2);
	}

	@Test
	void anErrorInAConsumerDoesNotStopTheNodeHearingOfChanges() {
		AtomicBoolean failed = new AtomicBoolean();
		List<String> received = new CopyOnWriteArrayList<>();
		this.log.subscribe((change) -> {
			if (failed.compareAndSet(false, true)) {
				throw new StackOverflowError("simulated");
			}
			received.add(change.uri());
		});
		this.log.start();
		this.log.publish(new ResourceChange("c://items/1", Map.of(), Instant.now()));
		await().atMost(WAIT).untilTrue(failed);
		this.log.publish(new ResourceChange("c://items/2", Map.of(), Instant.now()));
		await().atMost(WAIT).until(() -> received.contains("c://items/2"));
		assertThat(received).containsExactly("c://items/2");
	}

	private long stat(String section, String name) {
		Properties info = this.redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info(section));
		String value = info.getProperty(name);
		if (value == null) {
			return 0;
		}
		// commandstats: "calls=N,usec=...", stats: "N"
		String calls = value.startsWith("calls=") ? value.substring(6, value.indexOf(',')) : value;
		return Long.parseLong(calls);
	}

}
