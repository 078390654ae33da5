package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.cluster.ClusterHealthIndicator;
import io.github.mcpsubscriptions.cluster.RedisChangeLog;
import io.github.mcpsubscriptions.cluster.RedisSessionStore;
import io.github.mcpsubscriptions.cluster.RedisStreamHistory;
import io.github.mcpsubscriptions.session.InMemorySessionStore;
import io.github.mcpsubscriptions.session.SessionStore;
import io.github.mcpsubscriptions.session.SessionStreamHistory;
import io.github.mcpsubscriptions.test.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cluster is an auto-configuration of its own, ordered before the endpoint's: its
 * shared session store replaces the in-memory one whatever order the auto-configurations
 * are listed in, and an application's own store replaces both.
 */
class McpClusterAutoConfigurationTests {

	// Listed the endpoint first on purpose: the order comes from the classes' own
	// before/after, not from this list.
	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpEndpointAutoConfiguration.class, McpClusterAutoConfiguration.class,
				McpServerAutoConfiguration.class, DataRedisAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + TestRedis.address().host(),
				"spring.data.redis.port=" + TestRedis.address().port());

	@Test
	void offUnlessEnabled() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(RedisChangeLog.class);
			assertThat(context.getBean(SessionStore.class)).isInstanceOf(InMemorySessionStore.class);
		});
	}

	@Test
	void sharesTheSessionsWhenEnabled() {
		this.runner.withPropertyValues("mcp.cluster.enabled=true", "mcp.cluster.key-prefix=mcp-autoconfigure-test:")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(SessionStore.class)
					.hasSingleBean(RedisChangeLog.class)
					.hasSingleBean(ClusterHealthIndicator.class)
					.hasSingleBean(ClusterRedisClientCustomizer.class);
				assertThat(context.getBean(SessionStore.class)).isInstanceOf(RedisSessionStore.class);
				assertThat(context.getBean(SessionStreamHistory.class)).isInstanceOf(RedisStreamHistory.class);
			});
	}

	@Test
	void anApplicationsSessionStoreReplacesTheSharedOne() {
		InMemorySessionStore own = new InMemorySessionStore();
		this.runner.withPropertyValues("mcp.cluster.enabled=true", "mcp.cluster.key-prefix=mcp-autoconfigure-test:")
			.withBean("ownSessionStore", SessionStore.class, () -> own)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(SessionStore.class);
				assertThat(context.getBean(SessionStore.class)).isSameAs(own);
			});
	}

	@Test
	void offWithoutSpringDataRedis() {
		this.runner.withPropertyValues("mcp.cluster.enabled=true")
			.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(RedisChangeLog.class);
				assertThat(context.getBean(SessionStore.class)).isInstanceOf(InMemorySessionStore.class);
			});
	}

}
