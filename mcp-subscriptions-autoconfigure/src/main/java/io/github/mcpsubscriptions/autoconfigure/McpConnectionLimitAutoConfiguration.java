package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.transport.McpEndpoint;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.catalina.connector.Connector;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.coyote.AbstractProtocol;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the MCP endpoint's stream ceiling: once the servlet container has
 * started, its connection limit (Tomcat's {@code max-connections}, Jetty's
 * {@code server.jetty.max-connections}) less {@code mcp.endpoint.connection-reserve}
 * becomes the most streams the endpoint opens, so that a node full of streams answers the
 * next one at once with 503 rather than leaving new connections waiting, and keeps
 * answering requests. A meter and a health indicator show the streams against it.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpEndpointAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(WebServerInitializedEvent.class)
@ConditionalOnBean(McpEndpoint.class)
public final class McpConnectionLimitAutoConfiguration {

	private static final Log logger = LogFactory.getLog(McpConnectionLimitAutoConfiguration.class);

	@Bean
	ApplicationListener<WebServerInitializedEvent> mcpStreamCeiling(McpEndpoint endpoint, McpProperties properties,
			Environment environment) {
		return (event) -> {
			WebServer server = event.getWebServer();
			int limit = connectionLimit(server, environment);
			int reserve = properties.getEndpoint().getConnectionReserve();
			if (limit <= 0) {
				// Unlimited (Jetty's default) or unknown: the open-file limit is the
				// ceiling, see sizing.md.
				return;
			}
			int max = Math.max(0, limit - Math.max(0, reserve));
			endpoint.setMaxStreams(max, "the servlet container's connection limit " + limit
					+ " less mcp.endpoint.connection-reserve " + reserve);
			if (max == 0) {
				logger.warn("The MCP endpoint opens no streams: the servlet container's connection limit (" + limit
						+ ") is not above mcp.endpoint.connection-reserve (" + reserve + ")");
			}
		};
	}

	/**
	 * The container's connection limit, or 0 when it has none (or it is unknown).
	 */
	static int connectionLimit(WebServer server, Environment environment) {
		if (isPresent("org.springframework.boot.tomcat.TomcatWebServer") && TomcatLimit.isTomcat(server)) {
			return TomcatLimit.of(server);
		}
		if (server.getClass().getName().contains("Jetty")) {
			// Boot's Jetty server applies it as Jetty's NetworkConnectionLimit; -1 by
			// default.
			return Math.max(0, environment.getProperty("server.jetty.max-connections", Integer.class, -1));
		}
		return 0;
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, McpConnectionLimitAutoConfiguration.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	/** Tomcat's types, loaded only when Tomcat is the container. */
	private static final class TomcatLimit {

		static boolean isTomcat(WebServer server) {
			return server instanceof TomcatWebServer;
		}

		static int of(WebServer server) {
			TomcatWebServer tomcat = (TomcatWebServer) server;
			int port = tomcat.getPort();
			int limit = 0;
			for (Connector connector : tomcat.getTomcat().getService().findConnectors()) {
				if ((connector.getLocalPort() == port || connector.getPort() == port)
						&& connector.getProtocolHandler() instanceof AbstractProtocol<?> protocol) {
					limit = protocol.getMaxConnections();
				}
			}
			return Math.max(0, limit);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class StreamMeterConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "mcpStreamCeilingMetrics")
		MeterBinder mcpStreamCeilingMetrics(McpEndpoint endpoint) {
			return (registry) -> {
				Gauge
					.builder("mcp.streams.max", endpoint,
							(e) -> (e.getMaxStreams() == Integer.MAX_VALUE) ? Double.NaN : e.getMaxStreams())
					.description("The most streams this node opens: the container's connection limit less the reserve")
					.register(registry);
				FunctionCounter.builder("mcp.streams.refused", endpoint, McpEndpoint::getRefusedStreamCount)
					.description("New streams answered with 503 because the node held its most streams")
					.register(registry);
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	static class StreamHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "mcpStreamsHealthIndicator")
		HealthIndicator mcpStreamsHealthIndicator(McpEndpoint endpoint) {
			return () -> {
				int open = endpoint.getOpenStreamCount();
				int max = endpoint.getMaxStreams();
				Health.Builder health = Health.up().withDetail("streams", open);
				if (max != Integer.MAX_VALUE) {
					health.withDetail("maxStreams", max)
						.withDetail("streamsUsed", ((max > 0) ? Math.round(100.0 * open / max) : 100) + "%");
				}
				return health.withDetail("refusedStreams", endpoint.getRefusedStreamCount()).build();
			};
		}

	}

}
