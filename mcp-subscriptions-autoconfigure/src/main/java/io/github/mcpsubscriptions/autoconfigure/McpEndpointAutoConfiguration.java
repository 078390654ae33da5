package io.github.mcpsubscriptions.autoconfigure;

import java.time.Clock;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.notification.ResourceListChangedEvent;
import io.github.mcpsubscriptions.resource.ResourceCompleter;
import io.github.mcpsubscriptions.resource.ResourceContentMapper;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.server.ListChangedNotifier;
import io.github.mcpsubscriptions.server.McpRequestDispatcher;
import io.github.mcpsubscriptions.server.McpServerInfo;
import io.github.mcpsubscriptions.session.InMemorySessionStore;
import io.github.mcpsubscriptions.session.McpSessionManager;
import io.github.mcpsubscriptions.session.SecureRandomSessionIdGenerator;
import io.github.mcpsubscriptions.session.SessionIdGenerator;
import io.github.mcpsubscriptions.session.SessionListener;
import io.github.mcpsubscriptions.session.SessionStore;
import io.github.mcpsubscriptions.transport.McpEndpoint;
import io.github.mcpsubscriptions.transport.McpEndpointOptions;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Auto-configuration for the MCP Streamable HTTP endpoint and its 2025-era sessions in
 * a Spring MVC application.
 */
@AutoConfiguration(after = McpServerAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(SseEmitter.class)
public final class McpEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SessionStore mcpSessionStore() {
		return new InMemorySessionStore();
	}

	@Bean
	@ConditionalOnMissingBean
	SessionIdGenerator mcpSessionIdGenerator() {
		return new SecureRandomSessionIdGenerator();
	}

	@Bean
	@ConditionalOnMissingBean
	McpSessionManager mcpSessionManager(SessionStore store, SessionIdGenerator idGenerator, McpProperties properties,
			ObjectProvider<SessionListener> listeners) {
		McpProperties.Sessions sessions = properties.getSessions();
		return new McpSessionManager(store, idGenerator, Clock.systemUTC(), sessions.getIdleTimeout(),
				sessions.getMax(), properties.getEndpoint().getKeepAlive(), listeners.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	McpServerInfo mcpServerInfo(McpProperties properties, Environment environment,
			ObjectProvider<BuildProperties> buildProperties) {
		McpProperties.Server server = properties.getServer();
		String name = (server.getName() != null) ? server.getName()
				: environment.getProperty("spring.application.name", "mcp-server");
		String version = server.getVersion();
		if (version == null) {
			BuildProperties build = buildProperties.getIfAvailable();
			version = (build != null && build.getVersion() != null) ? build.getVersion() : "0.0.0";
		}
		return new McpServerInfo(name, version, server.getTitle(), server.getInstructions());
	}

	@Bean
	@ConditionalOnMissingBean
	McpRequestDispatcher mcpRequestDispatcher(McpServerInfo serverInfo, McpSessionManager sessionManager,
			ResourceRegistry resourceRegistry, ResourceContentMapper contentMapper,
			ObjectProvider<ResourceCompleter> completers, McpProperties properties) {
		return new McpRequestDispatcher(serverInfo, sessionManager, resourceRegistry, contentMapper,
				completers.orderedStream().toList(), properties.getResources().getPageSize());
	}

	@Bean
	@ConditionalOnMissingBean
	ListChangedNotifier mcpListChangedNotifier(McpSessionManager sessionManager, JsonRpcCodec codec,
			ResourceRegistry resourceRegistry) {
		ListChangedNotifier notifier = new ListChangedNotifier(sessionManager, codec);
		resourceRegistry.addListener(notifier);
		return notifier;
	}

	@Bean
	ApplicationListener<ResourceListChangedEvent> mcpResourceListChangedEventListener(ListChangedNotifier notifier) {
		return (event) -> notifier.resourceListChanged();
	}

	@Bean
	@ConditionalOnMissingBean
	McpEndpoint mcpEndpoint(McpRequestDispatcher dispatcher, McpSessionManager sessionManager, JsonRpcCodec codec,
			McpProperties properties) {
		McpProperties.Endpoint endpoint = properties.getEndpoint();
		return new McpEndpoint(dispatcher, sessionManager, codec,
				new McpEndpointOptions(endpoint.getMaxRequestSize().toBytes(), endpoint.isDnsRebindingProtection(),
						endpoint.getAllowedOrigins(), endpoint.getAllowedHosts()));
	}

}
