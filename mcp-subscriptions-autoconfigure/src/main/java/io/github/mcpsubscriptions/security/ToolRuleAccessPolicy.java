package io.github.mcpsubscriptions.security;

import java.security.Principal;

import io.github.mcpsubscriptions.tool.McpTool;
import io.github.mcpsubscriptions.tool.ToolAccessPolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.security.access.expression.method.MethodSecurityExpressionHandler;
import org.springframework.security.access.prepost.PreAuthorize;

/**
 * The {@link PreAuthorize @PreAuthorize} of a tool's method (or of its class) decides who
 * may call the tool and who sees it in {@code tools/list}, as a resource's rule does for
 * resources. The rule is evaluated before the call, without the arguments (a rule that
 * names an argument sees {@code null}); when method security is enabled, the method's own
 * proxy enforces the rule again with the arguments when the tool runs. A tool without a
 * method or a rule is open to whoever passed the endpoint's own security.
 *
 * @since 0.1.0
 */
public class ToolRuleAccessPolicy implements ToolAccessPolicy {

	private final MethodRules rules;

	/**
	 * Create a policy.
	 * @param expressionHandler evaluates the rules
	 */
	public ToolRuleAccessPolicy(MethodSecurityExpressionHandler expressionHandler) {
		this.rules = new MethodRules(expressionHandler, "tool");
	}

	@Override
	public boolean canCall(@Nullable Principal principal, McpTool tool) {
		return this.rules.allows(principal, tool.getMethod(), (tool.getTarget() != null) ? tool.getTarget() : tool);
	}

}
