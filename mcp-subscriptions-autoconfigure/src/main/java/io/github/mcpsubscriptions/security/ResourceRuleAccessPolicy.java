package io.github.mcpsubscriptions.security;

import java.lang.reflect.Method;
import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import io.github.mcpsubscriptions.resource.ResolvedResource;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceMethod;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.subscription.CoverageKind;
import io.github.mcpsubscriptions.subscription.CoverageRules;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.OpAnd;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.security.access.expression.ExpressionUtils;
import org.springframework.security.access.expression.method.MethodSecurityExpressionHandler;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.util.SimpleMethodInvocation;
import org.springframework.util.ConcurrentReferenceHashMap;

/**
 * One rule per resource decides who may read it, see it listed, subscribe to it and be
 * told of its changes: the {@link PreAuthorize @PreAuthorize} of its {@code @McpResource}
 * method (or of the method's class), or the
 * {@linkplain ResourceDefinition#getAccessRule() access rule} of a definition registered
 * at run time. The rule is a method-security expression: {@code authentication},
 * {@code hasAuthority(…)}, {@code @bean} references, and the URI variables by name
 * ({@code #id}), converted to the method's parameter types where a parameter binds them.
 * <p>
 * A subscription to a concrete resource is judged by that resource's rule; a collection,
 * template or pattern subscription is accepted (if it covers something) and every
 * delivery is judged by the changed resource's rule with the subscriber's authentication
 * (the one of the request that opened its stream or made its latest subscription), so it
 * never announces a child the subscriber may not read. A change of a URI nothing serves
 * (a resource unregistered at run time, whose rule went with it) reaches only a
 * subscription to that very URI. A resource without a rule is open to whoever passed the
 * endpoint's own security.
 * <p>
 * Decisions at delivery are kept for a bounded time per (authentication, rule, URI
 * variables); reads, listings and subscriptions are always evaluated afresh.
 *
 * @since 0.1.0
 */
public class ResourceRuleAccessPolicy implements ResourceAccessPolicy {

	private static final Log logger = LogFactory.getLog(ResourceRuleAccessPolicy.class);

	private static final Method RULE_WITHOUT_METHOD = ReflectionHolder.method();

	private static final Authentication ANONYMOUS = new AnonymousAuthenticationToken("mcp", "anonymousUser",
			AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS"));

	private final ResourceRegistry registry;

	private final MethodSecurityExpressionHandler expressionHandler;

	private final DecisionCache cache;

	private final Map<ResourceDefinition, Rule> rules = new ConcurrentReferenceHashMap<>(64,
			ConcurrentReferenceHashMap.ReferenceType.WEAK);

	/**
	 * Create a policy.
	 * @param registry resolves URIs to the resources whose rules apply
	 * @param expressionHandler evaluates the rules
	 * @param cacheTtl how long a decision at delivery is kept; zero to evaluate every
	 * time
	 * @param cacheSize how many decisions are kept at most
	 */
	public ResourceRuleAccessPolicy(ResourceRegistry registry, MethodSecurityExpressionHandler expressionHandler,
			Duration cacheTtl, int cacheSize) {
		this(registry, expressionHandler, new DecisionCache(cacheTtl, cacheSize, System::nanoTime));
	}

	ResourceRuleAccessPolicy(ResourceRegistry registry, MethodSecurityExpressionHandler expressionHandler,
			DecisionCache cache) {
		this.registry = registry;
		this.expressionHandler = expressionHandler;
		this.cache = cache;
	}

	@Override
	public boolean canRead(@Nullable Principal principal, String uri) {
		ResolvedResource resource = this.registry.resolve(uri);
		return resource == null || evaluate(authentication(principal), resource);
	}

	@Override
	public boolean canSubscribe(@Nullable Principal principal, String subscribedUri) {
		CoverageKind kind = CoverageRules.kindOf(subscribedUri);
		if (kind == CoverageKind.TEMPLATE || kind == CoverageKind.PATTERN) {
			return true;
		}
		return canRead(principal, subscribedUri);
	}

	/**
	 * A template is listed unless its rule denies the caller whatever the URI variables:
	 * when a part of the rule that reads no variable denies (the whole rule, such as
	 * {@code hasAuthority('SCOPE_files:read')}, or one operand of its top-level
	 * {@code and}s). A rule whose denial depends on the variables ({@code #tenant})
	 * cannot be judged without a URI: the template stays listed, and each of its URIs is
	 * judged when read, listed as an instance or delivered.
	 */
	@Override
	public boolean canListTemplate(@Nullable Principal principal, String uriTemplate) {
		for (ResourceDefinition template : this.registry.getTemplates()) {
			if (template.getUri().equals(uriTemplate)) {
				Rule rule = ruleOf(template);
				if (rule == Rule.NONE || rule == Rule.DENY) {
					return rule == Rule.NONE;
				}
				Authentication authentication = authentication(principal);
				for (SpelNode condition : rule.variableFree()) {
					if (deniesWithoutVariables(authentication, template, condition)) {
						return false;
					}
				}
				return true;
			}
		}
		return true;
	}

	private boolean deniesWithoutVariables(Authentication authentication, ResourceDefinition definition,
			SpelNode condition) {
		EvaluationContext context = this.expressionHandler.createEvaluationContext(() -> authentication,
				new SimpleMethodInvocation(definition, RULE_WITHOUT_METHOD));
		try {
			return Boolean.FALSE.equals(condition.getValue(new ExpressionState(context)));
		}
		catch (IllegalArgumentException | EvaluationException ex) {
			// Cannot tell: the template stays listed, its URIs are judged one by one.
			return false;
		}
	}

	@Override
	public boolean canReceive(@Nullable Principal principal, String changedUri, String subscribedUri) {
		ResolvedResource resource = this.registry.resolve(changedUri);
		if (resource == null) {
			// Nothing serves the URI (its resource was unregistered, and its rule with
			// it):
			// only a subscription to that very URI, judged when it was made, hears of it.
			return changedUri.equals(subscribedUri);
		}
		Rule rule = ruleOf(resource.definition());
		if (rule == Rule.NONE) {
			return true;
		}
		Authentication authentication = authentication(principal);
		return this.cache.decide(new Key(authentication, resource.definition(), resource.variables()),
				() -> evaluate(authentication, resource));
	}

	private boolean evaluate(Authentication authentication, ResolvedResource resource) {
		Rule rule = ruleOf(resource.definition());
		if (rule == Rule.NONE || rule == Rule.DENY) {
			return rule == Rule.NONE;
		}
		ResourceMethod method = resource.definition().getMethod();
		Object[] arguments = (method != null && rule.onMethod()) ? method.arguments(resource.request()) : new Object[0];
		if (arguments == null) {
			// A variable that does not convert: no such resource, nothing to grant.
			return false;
		}
		Supplier<Authentication> caller = () -> authentication;
		EvaluationContext context = (method != null && rule.onMethod())
				? this.expressionHandler.createEvaluationContext(caller,
						new SimpleMethodInvocation(method.getBean(), method.getMethod(), arguments))
				: this.expressionHandler.createEvaluationContext(caller,
						new SimpleMethodInvocation(resource.definition(), RULE_WITHOUT_METHOD));
		// The parameters are bound by parameter name on first lookup; bind them now, then
		// add
		// the URI variables by their own names (a parameter may bind a differently named
		// one).
		context.lookupVariable("mcp.bind");
		Map<String, Object> variables = (method != null && rule.onMethod())
				? method.variables(resource.request(), arguments) : Map.copyOf(resource.variables());
		context.setVariable("uri", resource.uri());
		variables.forEach(context::setVariable);
		try {
			return ExpressionUtils.evaluateAsBoolean(rule.expression(), context);
		}
		catch (IllegalArgumentException | EvaluationException ex) {
			// A rule that cannot be evaluated grants nothing.
			return false;
		}
	}

	private Rule ruleOf(ResourceDefinition definition) {
		return this.rules.computeIfAbsent(definition, this::parse);
	}

	private Rule parse(ResourceDefinition definition) {
		String text = definition.getAccessRule();
		boolean onMethod = false;
		ResourceMethod method = definition.getMethod();
		if (text == null && method != null) {
			PreAuthorize preAuthorize = AnnotatedElementUtils.findMergedAnnotation(method.getMethod(),
					PreAuthorize.class);
			if (preAuthorize == null) {
				preAuthorize = AnnotatedElementUtils.findMergedAnnotation(method.getMethod().getDeclaringClass(),
						PreAuthorize.class);
			}
			text = (preAuthorize != null) ? preAuthorize.value() : null;
			onMethod = true;
		}
		if (text == null) {
			return Rule.NONE;
		}
		try {
			Expression expression = this.expressionHandler.getExpressionParser().parseExpression(text);
			return new Rule(expression, onMethod, variableFree(expression));
		}
		catch (ParseException ex) {
			logger.error("Invalid access rule of MCP " + definition + ": '" + text + "'; it grants nothing", ex);
			return Rule.DENY;
		}
	}

	static Authentication authentication(@Nullable Principal principal) {
		if (principal instanceof Authentication authentication) {
			return authentication;
		}
		if (principal == null) {
			return ANONYMOUS;
		}
		return UsernamePasswordAuthenticationToken.authenticated(principal, null, List.of());
	}

	/**
	 * The conditions of a rule that read no variable and must all hold: the rule itself,
	 * or the operands of its top-level {@code and}s. A rule that is not SpEL has none.
	 */
	private static List<SpelNode> variableFree(Expression expression) {
		if (!(expression instanceof SpelExpression spel)) {
			return List.of();
		}
		List<SpelNode> conjuncts = new ArrayList<>();
		conjuncts(spel.getAST(), conjuncts);
		return conjuncts.stream().filter((conjunct) -> !readsVariables(conjunct)).toList();
	}

	private static void conjuncts(SpelNode node, List<SpelNode> into) {
		if (node instanceof OpAnd) {
			for (int i = 0; i < node.getChildCount(); i++) {
				conjuncts(node.getChild(i), into);
			}
		}
		else {
			into.add(node);
		}
	}

	/**
	 * Whether a part of a rule reads a variable (a URI variable, a parameter,
	 * {@code #uri}): anything but {@code #this} and {@code #root}.
	 */
	private static boolean readsVariables(SpelNode node) {
		if (node instanceof VariableReference variable && !variable.toStringAST().equals("#this")
				&& !variable.toStringAST().equals("#root")) {
			return true;
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			if (readsVariables(node.getChild(i))) {
				return true;
			}
		}
		return false;
	}

	private record Rule(@Nullable Expression expression, boolean onMethod, List<SpelNode> variableFree) {

		static final Rule NONE = new Rule(null, false, List.of());

		static final Rule DENY = new Rule(null, true, List.of());

	}

	/**
	 * A decision's key: the authentication by identity (a new token is a new decision),
	 * the definition by identity, the variables by value.
	 */
	private static final class Key {

		private final Authentication authentication;

		private final ResourceDefinition definition;

		private final Map<String, String> variables;

		private final int hash;

		Key(Authentication authentication, ResourceDefinition definition, Map<String, String> variables) {
			this.authentication = authentication;
			this.definition = definition;
			this.variables = variables;
			this.hash = Objects.hash(System.identityHashCode(authentication), System.identityHashCode(definition),
					variables);
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof Key key && key.authentication == this.authentication
					&& key.definition == this.definition && key.variables.equals(this.variables);
		}

		@Override
		public int hashCode() {
			return this.hash;
		}

	}

	private static final class ReflectionHolder {

		static Method method() {
			try {
				return ReflectionHolder.class.getDeclaredMethod("rule");
			}
			catch (NoSuchMethodException ex) {
				throw new IllegalStateException(ex);
			}
		}

		@SuppressWarnings("unused")
		private static void rule() {
		}

	}

}
