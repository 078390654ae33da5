package io.github.mcpsubscriptions.security;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Map;

import io.github.mcpsubscriptions.tool.McpTool;
import io.github.mcpsubscriptions.tool.ToolAccessPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.security.access.expression.ExpressionUtils;
import org.springframework.security.access.expression.method.MethodSecurityExpressionHandler;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.util.SimpleMethodInvocation;
import org.springframework.util.ConcurrentReferenceHashMap;

/**
 * The {@link PreAuthorize @PreAuthorize} of a tool's method (or of its class) decides who
 * may call the tool and who sees it in {@code tools/list}, as a resource's rule does for
 * resources. The rule is evaluated before the call, without the arguments (a rule that
 * names an argument sees {@code null}); when method security is enabled, the method's own
 * proxy enforces the rule again with the arguments when the tool runs. A tool without a
 * method or a rule is open to whoever passed the endpoint's own security.
 */
public class ToolRuleAccessPolicy implements ToolAccessPolicy {

	private static final Log logger = LogFactory.getLog(ToolRuleAccessPolicy.class);

	private static final Expression NO_RULE = new org.springframework.expression.common.LiteralExpression("true");

	private static final Expression INVALID_RULE = new org.springframework.expression.common.LiteralExpression(
			"false");

	private final MethodSecurityExpressionHandler expressionHandler;

	private final Map<Method, Expression> rules = new ConcurrentReferenceHashMap<>(64,
			ConcurrentReferenceHashMap.ReferenceType.WEAK);

	/**
	 * Create a policy.
	 * @param expressionHandler evaluates the rules
	 */
	public ToolRuleAccessPolicy(MethodSecurityExpressionHandler expressionHandler) {
		this.expressionHandler = expressionHandler;
	}

	@Override
	public boolean canCall(@Nullable Principal principal, McpTool tool) {
		Method method = tool.getMethod();
		if (method == null) {
			return true;
		}
		Expression rule = this.rules.computeIfAbsent(method, this::parse);
		if (rule == NO_RULE || rule == INVALID_RULE) {
			return rule == NO_RULE;
		}
		Authentication authentication = ResourceRuleAccessPolicy.authentication(principal);
		Object target = (tool.getTarget() != null) ? tool.getTarget() : tool;
		EvaluationContext context = this.expressionHandler.createEvaluationContext(() -> authentication,
				new SimpleMethodInvocation(target, method, new Object[method.getParameterCount()]));
		try {
			return ExpressionUtils.evaluateAsBoolean(rule, context);
		}
		catch (IllegalArgumentException | EvaluationException ex) {
			// A rule that cannot be evaluated grants nothing.
			return false;
		}
	}

	private Expression parse(Method method) {
		PreAuthorize preAuthorize = AnnotatedElementUtils.findMergedAnnotation(method, PreAuthorize.class);
		if (preAuthorize == null) {
			preAuthorize = AnnotatedElementUtils.findMergedAnnotation(method.getDeclaringClass(), PreAuthorize.class);
		}
		if (preAuthorize == null) {
			return NO_RULE;
		}
		try {
			return this.expressionHandler.getExpressionParser().parseExpression(preAuthorize.value());
		}
		catch (ParseException ex) {
			logger.error("Invalid @PreAuthorize of MCP tool method " + method + ": '" + preAuthorize.value()
					+ "'; it grants nothing", ex);
			return INVALID_RULE;
		}
	}

}
