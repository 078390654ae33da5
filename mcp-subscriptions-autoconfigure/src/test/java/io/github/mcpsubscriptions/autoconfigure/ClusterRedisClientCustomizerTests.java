package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.junit.jupiter.api.Test;

import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The cluster's Lettuce settings: fail fast unless the application says otherwise.
 */
class ClusterRedisClientCustomizerTests {

	private static final Duration POLL = Duration.ofSeconds(1);

	@Test
	void unsetTimeoutsBecomeTwoSecondsAndCommandsAreRejectedWhileDisconnected() {
		ClusterRedisClientCustomizer customizer = new ClusterRedisClientCustomizer(new DataRedisProperties(), POLL);
		LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder();
		customizer.customize(builder);
		assertThat(builder.build().getCommandTimeout()).isEqualTo(Duration.ofSeconds(2));
		ClientOptions.Builder options = ClientOptions.builder();
		customizer.customize(options);
		ClientOptions built = options.build();
		assertThat(built.getDisconnectedBehavior()).isEqualTo(DisconnectedBehavior.REJECT_COMMANDS);
		assertThat(built.getSocketOptions().getConnectTimeout()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void timeoutsTheApplicationSetAreHonoured() {
		DataRedisProperties properties = new DataRedisProperties();
		properties.setTimeout(Duration.ofSeconds(7));
		properties.setConnectTimeout(Duration.ofSeconds(4));
		ClusterRedisClientCustomizer customizer = new ClusterRedisClientCustomizer(properties, POLL);
		LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder();
		customizer.customize(builder);
		assertThat(builder.build().getCommandTimeout()).isEqualTo(Duration.ofSeconds(7));
		ClientOptions.Builder options = ClientOptions.builder()
			.socketOptions(io.lettuce.core.SocketOptions.builder().connectTimeout(Duration.ofSeconds(4)).build());
		customizer.customize(options);
		assertThat(options.build().getSocketOptions().getConnectTimeout()).isEqualTo(Duration.ofSeconds(4));
	}

	@Test
	void aPollTimeoutNotShorterThanTheCommandTimeoutIsRefused() {
		DataRedisProperties properties = new DataRedisProperties();
		properties.setTimeout(Duration.ofSeconds(1));
		assertThatIllegalStateException().isThrownBy(() -> new ClusterRedisClientCustomizer(properties, POLL))
			.withMessageContaining("mcp.cluster.poll-timeout (PT1S)")
			.withMessageContaining("spring.data.redis.timeout (PT1S)");
	}

	@Test
	void reconnectAttemptsAreAtMostFiveSecondsApartNotThirty() {
		ClientResources.Builder builder = ClientResources.builder();
		new ClusterRedisClientCustomizer(new DataRedisProperties(), POLL).customize(builder);
		ClientResources resources = builder.build();
		try {
			Delay delay = resources.reconnectDelay();
			assertThat(delay.createDelay(1)).isLessThan(Duration.ofMillis(10));
			assertThat(delay.createDelay(40)).isEqualTo(Duration.ofSeconds(5));
			assertThat(Delay.exponential().createDelay(40)).as("Lettuce's own").isEqualTo(Duration.ofSeconds(30));
		}
		finally {
			resources.shutdown();
		}
	}

}
