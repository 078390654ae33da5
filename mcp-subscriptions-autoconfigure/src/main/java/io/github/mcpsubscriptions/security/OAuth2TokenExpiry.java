package io.github.mcpsubscriptions.security;

import java.security.Principal;
import java.time.Instant;

import io.github.mcpsubscriptions.session.CredentialExpiry;
import org.jspecify.annotations.Nullable;

import org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken;

/**
 * The expiry of the OAuth 2.0 bearer token that Spring Security's resource server
 * authenticated a request with: a JWT's {@code exp}, an introspected token's expiry.
 * Other authentications do not expire.
 *
 * @since 0.1.0
 */
public final class OAuth2TokenExpiry implements CredentialExpiry {

	@Override
	public @Nullable Instant expiresAt(Principal principal) {
		return (principal instanceof AbstractOAuth2TokenAuthenticationToken<?> authentication)
				? authentication.getToken().getExpiresAt() : null;
	}

}
