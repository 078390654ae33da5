package io.github.mcpsubscriptions.security;

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
 * The scopes an {@code insufficient_scope} challenge names are those the refusing rule
 * tests, never every scope of the resource.
 */
class RequiredScopesTests {

	@Test
	void anAuthorityRuleNamesItsScopesAndNotItsRoles() {
		AccessDeniedException refusal = new AuthorizationDeniedException("Access Denied",
				new AuthorityAuthorizationDecision(false,
						AuthorityUtils.createAuthorityList("SCOPE_catalog:read", "ROLE_ADMIN", "SCOPE_files:read")));
		assertThat(RequiredScopes.of(refusal)).containsExactly("catalog:read", "files:read");
	}

	@Test
	void anExpressionNamesTheScopesItTestsOutsideANegation() {
		AccessDeniedException refusal = refusedBy("hasAuthority('SCOPE_catalog:read') and "
				+ "(!hasAuthority('SCOPE_banned') or hasAnyAuthority('SCOPE_catalog:restricted', 'ROLE_X')) "
				+ "and @tenants.member(authentication, #tenant)");
		assertThat(RequiredScopes.of(refusal)).containsExactly("catalog:read", "catalog:restricted");
	}

	@Test
	void nothingIsNamedWhenTheRefusalDoesNotSay() {
		assertThat(RequiredScopes.of(new AccessDeniedException("Access Denied"))).isEmpty();
		assertThat(RequiredScopes.of(new AuthorizationDeniedException("Access Denied", new AuthorizationDecision(false))))
			.isEmpty();
		assertThat(RequiredScopes.of(refusedBy("hasRole('ADMIN') or #id == authentication.name"))).isEmpty();
	}

	private static AccessDeniedException refusedBy(String expression) {
		return new AuthorizationDeniedException("Access Denied",
				new ExpressionAuthorizationDecision(false, new SpelExpressionParser().parseExpression(expression)));
	}

}
