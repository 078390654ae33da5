package io.github.mcpsubscriptions.security;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.OperatorNot;
import org.springframework.expression.spel.ast.StringLiteral;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authorization.AuthorityAuthorizationDecision;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.authorization.ExpressionAuthorizationDecision;
import org.springframework.security.core.GrantedAuthority;

/**
 * The scopes a refused request needed, read from the refusal itself: the authorities of
 * an {@code hasAuthority}/{@code hasAnyAuthority} rule of the filter chain, or the
 * {@code SCOPE_…} authorities an {@code @PreAuthorize} expression tests (outside a
 * negation). Spring Security maps a token's scopes to {@code SCOPE_…} authorities, so
 * those are the scopes; other authorities (roles) are not scopes and are left out.
 */
final class RequiredScopes {

	static final String PREFIX = "SCOPE_";

	private static final List<String> AUTHORITY_TESTS = List.of("hasAuthority", "hasAnyAuthority",
			"hasAllAuthorities");

	private RequiredScopes() {
	}

	/**
	 * The scopes a refusal names.
	 * @param refusal the access-denied exception
	 * @return the scopes, in the order the rule names them; empty when the refusal does not
	 * say (a rule of another kind, or an exception without its decision)
	 */
	static Set<String> of(AccessDeniedException refusal) {
		Set<String> scopes = new LinkedHashSet<>();
		if (refusal instanceof AuthorizationDeniedException denied) {
			collect(denied.getAuthorizationResult(), scopes);
		}
		return scopes;
	}

	private static void collect(@Nullable AuthorizationResult result, Set<String> scopes) {
		if (result instanceof AuthorityAuthorizationDecision decision) {
			for (GrantedAuthority authority : decision.getAuthorities()) {
				addIfScope(authority.getAuthority(), scopes);
			}
		}
		else if (result instanceof ExpressionAuthorizationDecision decision) {
			collect(decision.getExpression(), scopes);
		}
	}

	private static void collect(Expression expression, Set<String> scopes) {
		if (expression instanceof SpelExpression spel) {
			collect(spel.getAST(), false, scopes);
		}
	}

	private static void collect(SpelNode node, boolean negated, Set<String> scopes) {
		// Under a negation an authority is one the caller must NOT have: nothing to ask for.
		boolean inverted = negated ^ (node instanceof OperatorNot);
		if (!inverted && node instanceof MethodReference method && AUTHORITY_TESTS.contains(method.getName())) {
			for (int i = 0; i < node.getChildCount(); i++) {
				if (node.getChild(i) instanceof StringLiteral literal
						&& literal.getLiteralValue().getValue() instanceof String authority) {
					addIfScope(authority, scopes);
				}
			}
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			collect(node.getChild(i), inverted, scopes);
		}
	}

	private static void addIfScope(@Nullable String authority, Set<String> scopes) {
		if (authority != null && authority.startsWith(PREFIX) && authority.length() > PREFIX.length()) {
			scopes.add(authority.substring(PREFIX.length()));
		}
	}

}
