package io.github.mcpsubscriptions.security;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Map;

import io.github.mcpsubscriptions.prompt.Prompt;
import io.github.mcpsubscriptions.prompt.PromptAccessPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.security.access.expression.ExpressionUtils;
import org.springframework.security.access.expression.method.MethodSecurityExpressionHandler;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.util.SimpleMethodInvocation;
import org.springframework.util.ConcurrentReferenceHashMap;

/**
 * The {@link PreAuthorize @PreAuthorize} of a prompt's method (or of its class) decides who
 * may get the prompt, who sees it in {@code prompts/list} and who may complete its
 * arguments, as a tool's rule does for tools. The rule is evaluated without the arguments
 * (a rule that names an argument sees {@code null}); when method security is enabled, the
 * method's own proxy enforces the rule again with the arguments when the prompt runs. A
 * prompt without a method or a rule is open to whoever passed the endpoint's own
 * security.
 *
 * @since 0.1.0
 */
public class PromptRuleAccessPolicy implements PromptAccessPolicy {

	private static final Log logger = LogFactory.getLog(PromptRuleAccessPolicy.class);

	private static final Expression NO_RULE = new LiteralExpression("true");

	private static final Expression INVALID_RULE = new LiteralExpression("false");

	private final MethodSecurityExpressionHandler expressionHandler;

	private final Map<Method, Expression> rules = new ConcurrentReferenceHashMap<>(64,
			ConcurrentReferenceHashMap.ReferenceType.WEAK);

	/**
	 * Create a policy.
	 * @param expressionHandler evaluates the rules
	 */
	public PromptRuleAccessPolicy(MethodSecurityExpressionHandler expressionHandler) {
		this.expressionHandler = expressionHandler;
	}

	@Override
	public boolean canGet(@Nullable Principal principal, Prompt prompt) {
		Method method = prompt.getMethod();
		if (method == null) {
			return true;
		}
		Expression rule = this.rules.computeIfAbsent(method, this::parse);
		if (rule == NO_RULE || rule == INVALID_RULE) {
			return rule == NO_RULE;
		}
		Authentication authentication = ResourceRuleAccessPolicy.authentication(principal);
		Object target = (prompt.getTarget() != null) ? prompt.getTarget() : prompt;
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
			logger.error("Invalid @PreAuthorize of MCP prompt method " + method + ": '" + preAuthorize.value()
					+ "'; it grants nothing", ex);
			return INVALID_RULE;
		}
	}

}
