package io.github.mcpsubscriptions.security;

import java.security.Principal;

import io.github.mcpsubscriptions.prompt.Prompt;
import io.github.mcpsubscriptions.prompt.PromptAccessPolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.security.access.expression.method.MethodSecurityExpressionHandler;
import org.springframework.security.access.prepost.PreAuthorize;

/**
 * The {@link PreAuthorize @PreAuthorize} of a prompt's method (or of its class) decides
 * who may get the prompt, who sees it in {@code prompts/list} and who may complete its
 * arguments, as a tool's rule does for tools. The rule is evaluated without the arguments
 * (a rule that names an argument sees {@code null}); when method security is enabled, the
 * method's own proxy enforces the rule again with the arguments when the prompt runs. A
 * prompt without a method or a rule is open to whoever passed the endpoint's own
 * security.
 *
 * @since 0.1.0
 */
public class PromptRuleAccessPolicy implements PromptAccessPolicy {

	private final MethodRules rules;

	/**
	 * Create a policy.
	 * @param expressionHandler evaluates the rules
	 */
	public PromptRuleAccessPolicy(MethodSecurityExpressionHandler expressionHandler) {
		this.rules = new MethodRules(expressionHandler, "prompt");
	}

	@Override
	public boolean canGet(@Nullable Principal principal, Prompt prompt) {
		return this.rules.allows(principal, prompt.getMethod(),
				(prompt.getTarget() != null) ? prompt.getTarget() : prompt);
	}

}
