package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.prompt.PromptAccessPolicy;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.security.McpProtectedResource;
import io.github.mcpsubscriptions.security.OAuth2TokenExpiry;
import io.github.mcpsubscriptions.security.PromptRuleAccessPolicy;
import io.github.mcpsubscriptions.security.ResourceRuleAccessPolicy;
import io.github.mcpsubscriptions.security.ToolRuleAccessPolicy;
import io.github.mcpsubscriptions.session.CredentialExpiry;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import io.github.mcpsubscriptions.tool.ToolAccessPolicy;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.access.PermissionEvaluator;
import org.springframework.security.access.expression.method.DefaultMethodSecurityExpressionHandler;
import org.springframework.security.access.expression.method.MethodSecurityExpressionHandler;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Auto-configuration for the MCP endpoint with Spring Security: the resources', tools'
 * and prompts' rules decide access (unless the application has its own
 * {@link ResourceAccessPolicy}, {@link ToolAccessPolicy} or {@link PromptAccessPolicy}),
 * streams opened with a bearer token end when it expires, and with its OAuth 2.0 resource
 * server support, the endpoint's protected-resource description. Before
 * {@link McpEndpointAutoConfiguration}, whose permissive policies back off for these.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpServerAutoConfiguration.class, before = McpEndpointAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = { "mcp.enabled", "mcp.security.enabled" }, matchIfMissing = true)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ SseEmitter.class, MethodSecurityExpressionHandler.class })
@EnableConfigurationProperties(McpSecurityProperties.class)
public final class McpSecurityAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ResourceAccessPolicy.class)
	ResourceRuleAccessPolicy mcpResourceRuleAccessPolicy(ResourceRegistry registry,
			ObjectProvider<MethodSecurityExpressionHandler> expressionHandler,
			ObjectProvider<RoleHierarchy> roleHierarchy, ObjectProvider<PermissionEvaluator> permissionEvaluator,
			ApplicationContext context, McpSecurityProperties properties) {
		MethodSecurityExpressionHandler handler = expressionHandler(expressionHandler, roleHierarchy,
				permissionEvaluator, context);
		McpSecurityProperties.DecisionCache cache = properties.getDecisionCache();
		return new ResourceRuleAccessPolicy(registry, handler, cache.getTtl(), cache.getMaxSize());
	}

	@Bean
	@ConditionalOnMissingBean(ToolAccessPolicy.class)
	ToolRuleAccessPolicy mcpToolRuleAccessPolicy(ObjectProvider<MethodSecurityExpressionHandler> expressionHandler,
			ObjectProvider<RoleHierarchy> roleHierarchy, ObjectProvider<PermissionEvaluator> permissionEvaluator,
			ApplicationContext context) {
		return new ToolRuleAccessPolicy(
				expressionHandler(expressionHandler, roleHierarchy, permissionEvaluator, context));
	}

	@Bean
	@ConditionalOnMissingBean(PromptAccessPolicy.class)
	PromptRuleAccessPolicy mcpPromptRuleAccessPolicy(ObjectProvider<MethodSecurityExpressionHandler> expressionHandler,
			ObjectProvider<RoleHierarchy> roleHierarchy, ObjectProvider<PermissionEvaluator> permissionEvaluator,
			ApplicationContext context) {
		return new PromptRuleAccessPolicy(
				expressionHandler(expressionHandler, roleHierarchy, permissionEvaluator, context));
	}

	private static MethodSecurityExpressionHandler expressionHandler(
			ObjectProvider<MethodSecurityExpressionHandler> expressionHandler,
			ObjectProvider<RoleHierarchy> roleHierarchy, ObjectProvider<PermissionEvaluator> permissionEvaluator,
			ApplicationContext context) {
		return expressionHandler.getIfAvailable(() -> {
			DefaultMethodSecurityExpressionHandler defaults = new DefaultMethodSecurityExpressionHandler();
			defaults.setApplicationContext(context);
			roleHierarchy.ifAvailable(defaults::setRoleHierarchy);
			permissionEvaluator.ifAvailable(defaults::setPermissionEvaluator);
			return defaults;
		});
	}

	/** Streams opened with a bearer token end when it expires. */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnClass(
			name = "org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken")
	CredentialExpiry mcpCredentialExpiry() {
		return new OAuth2TokenExpiry();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnClass(name = "org.springframework.security.oauth2.server.resource.OAuth2ProtectedResourceMetadata")
	@ConditionalOnProperty("mcp.security.oauth2.resource")
	McpProtectedResource mcpProtectedResource(McpSecurityProperties properties) {
		McpSecurityProperties.OAuth2 oauth2 = properties.getOauth2();
		return new McpProtectedResource(oauth2.getResource(), oauth2.getAuthorizationServers(), oauth2.getScopes(),
				oauth2.getResourceName());
	}

}
