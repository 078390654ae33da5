package io.github.mcpsubscriptions.subscription;

/**
 * Decides which changes a subscription covers for the URI schemes it supports, replacing
 * the {@link CoverageRules default rules} for those schemes. Implementations are
 * registered as beans and must be thread-safe.
 * <p>
 * Subscriptions whose scheme a matcher supports are not indexed: each change of a URI
 * with that scheme is checked against every subscription of the scheme, so a custom
 * matcher costs a scan over its own scheme's subscriptions. A matcher is only asked about
 * changed URIs of the same scheme as the subscription, and subscriptions it takes are not
 * validated by the default rules. A matcher that extends the default rules can call
 * {@link CoverageRules#covers(String, String)} itself.
 *
 * @since 0.1.0
 */
public interface SubscriptionMatcher {

	/**
	 * Whether this matcher decides coverage for subscriptions whose URI has the given
	 * scheme.
	 * @param scheme the scheme, lower-case, without the colon
	 * @return whether this matcher decides coverage for that scheme
	 */
	boolean supportsScheme(String scheme);

	/**
	 * Whether a subscription to {@code subscribedUri} covers a change of
	 * {@code changedUri}.
	 * @param subscribedUri the URI the client subscribed to
	 * @param changedUri the URI of the resource that changed
	 * @return whether a notification for the change is due to the subscription
	 */
	boolean covers(String subscribedUri, String changedUri);

}
