package io.github.mcpsubscriptions.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.core.Ordered;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * Makes the auto-configured Lettuce client of a clustered node fail fast while Redis is
 * unreachable, so that a request that needs Redis is answered 503 at once instead of
 * holding its thread: commands are rejected while the connection is down rather than
 * queued until it is back, and a command (and a connect) that Redis does not answer fails
 * after {@code spring.data.redis.timeout} ({@code spring.data.redis.connect-timeout}),
 * which default to {@link #DEFAULT_TIMEOUT} here rather than Lettuce's 60 s (10 s). And
 * once Redis is back, the node notices within {@link #MAX_RECONNECT_DELAY}: Lettuce's
 * reconnect back-off grows to 30 s by default, so after a long outage a node stayed
 * without Redis (503s, health DOWN) for up to 30 s more. Runs before the application's
 * own customizers, which may change any of it.
 */
final class ClusterRedisClientCustomizer implements LettuceClientConfigurationBuilderCustomizer,
		LettuceClientOptionsBuilderCustomizer, ClientResourcesBuilderCustomizer, Ordered {

	/**
	 * How long a Redis command or connect may take unless the application says otherwise.
	 */
	static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

	/** The longest wait between two attempts to reconnect to Redis. */
	static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(5);

	private final DataRedisProperties properties;

	ClusterRedisClientCustomizer(DataRedisProperties properties, Duration pollTimeout) {
		this.properties = properties;
		Duration timeout = commandTimeout();
		// The log reader's XREAD BLOCK is a command too: it must end before the timeout.
		if (pollTimeout.compareTo(timeout) >= 0) {
			throw new IllegalStateException("mcp.cluster.poll-timeout (" + pollTimeout
					+ ") must be shorter than the Redis command timeout, spring.data.redis.timeout (" + timeout
					+ "), or every read of the change log fails");
		}
	}

	private Duration commandTimeout() {
		Duration timeout = this.properties.getTimeout();
		return (timeout != null) ? timeout : DEFAULT_TIMEOUT;
	}

	@Override
	public void customize(LettuceClientConfigurationBuilder builder) {
		builder.commandTimeout(commandTimeout());
	}

	@Override
	public void customize(ClientOptions.Builder builder) {
		builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
		if (this.properties.getConnectTimeout() == null) {
			builder.socketOptions(SocketOptions.builder().connectTimeout(DEFAULT_TIMEOUT).build());
		}
	}

	@Override
	public void customize(ClientResources.Builder builder) {
		builder.reconnectDelay(() -> Delay.exponential(Duration.ZERO, MAX_RECONNECT_DELAY, 2, TimeUnit.MILLISECONDS));
	}

	@Override
	public int getOrder() {
		return 0;
	}

}
