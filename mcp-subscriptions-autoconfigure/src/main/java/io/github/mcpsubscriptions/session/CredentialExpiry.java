package io.github.mcpsubscriptions.session;

import java.security.Principal;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * When the credential a request was authenticated with expires (a bearer token's
 * {@code exp}), so that a stream opened with it ends no later than that: the 2025 GET
 * stream with an SSE {@code retry} (the client resumes it with a fresh token), the 2026
 * listen stream without its completion result (the client listens again). Requests with
 * an expired token are refused by the application's security; a stream outlives the
 * request that opened it, and would otherwise deliver under a credential nobody accepts
 * any more. With Spring Security's OAuth 2.0 resource server, the token's expiry is used;
 * otherwise credentials do not expire.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface CredentialExpiry {

	/** Credentials that never expire. */
	CredentialExpiry NONE = (principal) -> null;

	/**
	 * When the credential of an authenticated caller expires.
	 * @param principal the caller, as the request's {@code getUserPrincipal()} gave it
	 * @return the instant, or {@code null} if it does not expire
	 */
	@Nullable Instant expiresAt(Principal principal);

}
