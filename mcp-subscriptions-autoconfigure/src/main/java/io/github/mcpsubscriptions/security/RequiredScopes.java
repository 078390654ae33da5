package io.github.mcpsubscriptions.security;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.OpOr;
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
 * <p>
 * The answer is the fewest scopes that satisfy the rule (least privilege): every scope of
 * a conjunction, and of alternatives ({@code or}, {@code hasAnyAuthority}) the one that
 * needs the fewest scopes the caller does not have yet; among equals, the first in the
 * resource's {@code scopes_supported}. A chain rule's refusal lists its authorities, in
 * no order, without saying whether any or all were needed; it is read as
 * {@code hasAnyAuthority}, its usual source, so under {@code hasAllAuthorities} a client
 * steps up once per missing scope.
 */
final class RequiredScopes {

	static final String PREFIX = "SCOPE_";

	private static final List<String> ANY_AUTHORITY_TESTS = List.of("hasAuthority", "hasAnyAuthority");

	private static final String ALL_AUTHORITIES_TEST = "hasAllAuthorities";

	private RequiredScopes() {
	}

	/**
	 * The fewest scopes that satisfy the rule behind a refusal.
	 * @param refusal the access-denied exception
	 * @param granted the scopes the caller has, to prefer alternatives it nearly meets
	 * @param known the resource's scopes, in the order to prefer them
	 * @return the scopes, in the order the rule names them; empty when the refusal does
	 * not say (a rule of another kind, or an exception without its decision)
	 */
	static Set<String> of(AccessDeniedException refusal, Set<String> granted, List<String> known) {
		if (refusal instanceof AuthorizationDeniedException denied) {
			AuthorizationResult result = denied.getAuthorizationResult();
			if (result instanceof AuthorityAuthorizationDecision decision) {
				return cheapest(
						decision.getAuthorities().stream().map(GrantedAuthority::getAuthority).sorted().toList(),
						granted, known);
			}
			if (result instanceof ExpressionAuthorizationDecision decision
					&& decision.getExpression() instanceof SpelExpression spel) {
				return minimal(spel.getAST(), granted, known);
			}
		}
		return Set.of();
	}

	private static Set<String> minimal(SpelNode node, Set<String> granted, List<String> known) {
		// Under a negation an authority is one the caller must NOT have: nothing to ask
		// for.
		if (node instanceof OperatorNot) {
			return Set.of();
		}
		if (node instanceof MethodReference method && ANY_AUTHORITY_TESTS.contains(method.getName())) {
			return cheapest(literals(node), granted, known);
		}
		if (node instanceof MethodReference method && ALL_AUTHORITIES_TEST.equals(method.getName())) {
			return scopes(literals(node));
		}
		if (node instanceof OpOr) {
			Set<String> best = Set.of();
			for (int i = 0; i < node.getChildCount(); i++) {
				Set<String> alternative = minimal(node.getChild(i), granted, known);
				if (!alternative.isEmpty()
						&& (best.isEmpty() || missing(alternative, granted) < missing(best, granted))) {
					best = alternative;
				}
			}
			return best;
		}
		// A conjunction, or any other node: what each part needs.
		Set<String> all = new LinkedHashSet<>();
		for (int i = 0; i < node.getChildCount(); i++) {
			all.addAll(minimal(node.getChild(i), granted, known));
		}
		return all;
	}

	/**
	 * Of alternative authorities, a scope the caller has, else the first scope, in the
	 * order of the resource's scopes, then as listed.
	 */
	private static Set<String> cheapest(List<@Nullable String> authorities, Set<String> granted, List<String> known) {
		Comparator<String> preferred = Comparator.comparing((String scope) -> !granted.contains(scope))
			.thenComparingInt((scope) -> known.contains(scope) ? known.indexOf(scope) : known.size());
		return scopes(authorities).stream().min(preferred).map(Set::of).orElse(Set.of());
	}

	private static List<@Nullable String> literals(SpelNode node) {
		List<@Nullable String> authorities = new ArrayList<>();
		for (int i = 0; i < node.getChildCount(); i++) {
			if (node.getChild(i) instanceof StringLiteral literal
					&& literal.getLiteralValue().getValue() instanceof String authority) {
				authorities.add(authority);
			}
		}
		return authorities;
	}

	private static Set<String> scopes(List<@Nullable String> authorities) {
		Set<String> scopes = new LinkedHashSet<>();
		for (String authority : authorities) {
			if (authority != null && authority.startsWith(PREFIX) && authority.length() > PREFIX.length()) {
				scopes.add(authority.substring(PREFIX.length()));
			}
		}
		return scopes;
	}

	private static long missing(Set<String> scopes, Set<String> granted) {
		return scopes.stream().filter((scope) -> !granted.contains(scope)).count();
	}

}
