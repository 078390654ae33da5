package io.github.mcpsubscriptions.security;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Map;

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
 * The {@link PreAuthorize @PreAuthorize} rules of the methods behind tools and prompts,
 * parsed once per method and evaluated without the arguments (a rule that names an
 * argument sees {@code null}). A method without a rule is open; a rule that cannot be
 * parsed or evaluated grants nothing.
 */
final class MethodRules {

	private static final Log logger = LogFactory.getLog(MethodRules.class);

	private static final Expression NO_RULE = new LiteralExpression("true");

	private static final Expression INVALID_RULE = new LiteralExpression("false");

	private final MethodSecurityExpressionHandler expressionHandler;

	/** What the methods serve, for the log: "tool", "prompt". */
	private final String kind;

	private final Map<Method, Expression> rules = new ConcurrentReferenceHashMap<>(64,
			ConcurrentReferenceHashMap.ReferenceType.WEAK);

	MethodRules(MethodSecurityExpressionHandler expressionHandler, String kind) {
		this.expressionHandler = expressionHandler;
		this.kind = kind;
	}

	/**
	 * Whether a principal passes a method's rule.
	 * @param principal the principal, or {@code null} when anonymous
	 * @param method the method, or {@code null} when there is none (open)
	 * @param target the object the method runs on
	 * @return whether the rule allows it
	 */
	boolean allows(@Nullable Principal principal, @Nullable Method method, Object target) {
		if (method == null) {
			return true;
		}
		Expression rule = this.rules.computeIfAbsent(method, this::parse);
		if (rule == NO_RULE || rule == INVALID_RULE) {
			return rule == NO_RULE;
		}
		Authentication authentication = ResourceRuleAccessPolicy.authentication(principal);
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
			logger.error("Invalid @PreAuthorize of MCP " + this.kind + " method " + method + ": '"
					+ preAuthorize.value() + "'; it grants nothing", ex);
			return INVALID_RULE;
		}
	}

}
