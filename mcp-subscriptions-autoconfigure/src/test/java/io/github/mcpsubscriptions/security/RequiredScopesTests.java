package io.github.mcpsubscriptions.security;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authorization.AuthorityAuthorizationDecision;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.security.authorization.ExpressionAuthorizationDecision;
import org.springframework.security.core.authority.AuthorityUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scopes a challenge names are the fewest that satisfy the refusing rule, never every
 * scope of the resource: all of a conjunction, one alternative of a disjunction.
 */
class RequiredScopesTests {

	@Test
	void anAuthorityRuleNamesOneOfItsScopesAndNotItsRoles() {
		AccessDeniedException refusal = new AuthorizationDeniedException("Access Denied",
				new AuthorityAuthorizationDecision(false,
						AuthorityUtils.createAuthorityList("ROLE_ADMIN", "SCOPE_catalog:read", "SCOPE_files:read")));
		assertThat(RequiredScopes.of(refusal, Set.of(), List.of())).containsExactly("catalog:read");
		// The decision's authorities come in no order: the resource's scopes give one.
		assertThat(RequiredScopes.of(refusal, Set.of(), List.of("files:read", "catalog:read")))
			.containsExactly("files:read");
	}

	@Test
	void ofAlternativesTheOneThatNeedsFewestNewScopesIsNamed() {
		AccessDeniedException refusal = refusedBy("(hasAuthority('SCOPE_a') and hasAuthority('SCOPE_b')) "
				+ "or hasAllAuthorities('SCOPE_c', 'SCOPE_d', 'SCOPE_e') or hasRole('ADMIN')");
		assertThat(RequiredScopes.of(refusal, Set.of(), List.of())).containsExactly("a", "b");
		assertThat(RequiredScopes.of(refusal, Set.of("c", "d"), List.of())).containsExactly("c", "d", "e");
		assertThat(
				RequiredScopes.of(refusedBy("hasAnyAuthority('ROLE_X', 'SCOPE_a', 'SCOPE_b')"), Set.of("b"), List.of()))
			.containsExactly("b");
	}

	@Test
	void anExpressionNamesTheScopesItTestsOutsideANegation() {
		AccessDeniedException refusal = refusedBy("hasAuthority('SCOPE_catalog:read') and "
				+ "(!hasAuthority('SCOPE_banned') or hasAnyAuthority('SCOPE_catalog:restricted', 'ROLE_X')) "
				+ "and @tenants.member(authentication, #tenant)");
		assertThat(RequiredScopes.of(refusal, Set.of(), List.of())).containsExactly("catalog:read",
				"catalog:restricted");
	}

	@Test
	void nothingIsNamedWhenTheRefusalDoesNotSay() {
		assertThat(RequiredScopes.of(new AccessDeniedException("Access Denied"), Set.of(), List.of())).isEmpty();
		assertThat(
				RequiredScopes.of(new AuthorizationDeniedException("Access Denied", new AuthorizationDecision(false)),
						Set.of(), List.of()))
			.isEmpty();
		assertThat(RequiredScopes.of(refusedBy("hasRole('ADMIN') or #id == authentication.name"), Set.of(), List.of()))
			.isEmpty();
	}

	private static AccessDeniedException refusedBy(String expression) {
		return new AuthorizationDeniedException("Access Denied",
				new ExpressionAuthorizationDecision(false, new SpelExpressionParser().parseExpression(expression)));
	}

}
