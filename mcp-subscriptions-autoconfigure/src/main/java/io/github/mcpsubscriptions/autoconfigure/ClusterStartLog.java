package io.github.mcpsubscriptions.autoconfigure;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.util.ClassUtils;

/**
 * Says once, when the application has started, that the node is clustered, on which Redis
 * and under which key prefix: the first thing to check when nodes do not see each other's
 * sessions is that they share both.
 */
final class ClusterStartLog implements ApplicationListener<ContextRefreshedEvent> {

	private static final Log logger = LogFactory.getLog(ClusterStartLog.class);

	private static final String CONNECTION_DETAILS = "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails";

	private final String nodeName;

	private final String keyPrefix;

	private final ListableBeanFactory beanFactory;

	private final AtomicBoolean logged = new AtomicBoolean();

	ClusterStartLog(String nodeName, String keyPrefix, ListableBeanFactory beanFactory) {
		this.nodeName = nodeName;
		this.keyPrefix = keyPrefix;
		this.beanFactory = beanFactory;
	}

	@Override
	public void onApplicationEvent(ContextRefreshedEvent event) {
		// Once: a management context on a port of its own is refreshed too.
		if (this.logged.compareAndSet(false, true)) {
			logger.info(
					"The MCP cluster is on: node " + this.nodeName + ", " + redis() + ", key prefix " + this.keyPrefix);
		}
	}

	private String redis() {
		// Boot's Redis support is optional beside Spring Data Redis: read it only when
		// there.
		@Nullable String address = ClassUtils.isPresent(CONNECTION_DETAILS, getClass().getClassLoader())
				? ConnectionDetails.describe(this.beanFactory) : null;
		return (address != null) ? address : "Redis through the application's RedisConnectionFactory";
	}

	private static final class ConnectionDetails {

		static @Nullable String describe(ListableBeanFactory beanFactory) {
			DataRedisConnectionDetails details = beanFactory.getBeanProvider(DataRedisConnectionDetails.class)
				.getIfUnique();
			if (details == null) {
				return null;
			}
			if (details.getCluster() != null) {
				return "Redis Cluster at " + nodes(details.getCluster().getNodes());
			}
			if (details.getSentinel() != null) {
				return "Redis Sentinel master " + details.getSentinel().getMaster() + " at "
						+ nodes(details.getSentinel().getNodes()) + " (database " + details.getSentinel().getDatabase()
						+ ")";
			}
			DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
			return "Redis at " + standalone.getHost() + ":" + standalone.getPort() + " (database "
					+ standalone.getDatabase() + ")";
		}

		private static String nodes(List<DataRedisConnectionDetails.Node> nodes) {
			return nodes.stream().map((node) -> node.host() + ":" + node.port()).collect(Collectors.joining(", "));
		}

	}

}
