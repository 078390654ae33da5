package io.github.mcpsubscriptions.subscription;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

/**
 * Decides who may read what, subscribe to what and be told of which changes. It is asked
 * for every {@code resources/read}, for each resource a listing or a completion would
 * show, and again for every notification, so a revoked permission stops notifications at
 * once. A refused read is reported as "not found", and a refused resource is left out of
 * listings, so that callers cannot probe which URIs exist. For the same reason a
 * subscription ({@code resources/subscribe}, each URI of {@code subscriptions/listen}) is
 * judged only by what the caller may see: it must cover a resource the caller
 * {@linkplain #canRead may read} or a template {@linkplain #canListTemplate listed} to
 * it; a URI of such a template is accepted even where the caller may not read it, exactly
 * as one that does not exist, and delivers nothing it may not {@linkplain #canReceive
 * receive}.
 * <p>
 * By default a read is allowed if the caller could subscribe to the URI, and a
 * notification about a changed resource is sent only if the subscriber could subscribe to
 * that resource itself: a policy that refuses {@code catalog://products/3} therefore also
 * keeps {@code catalog://products}, {@code catalog://products/{id}} and pattern
 * subscriptions from delivering it. With Spring Security on the class path and no policy
 * bean of the application's, the rules of the resources ({@code @PreAuthorize} on
 * {@code @McpResource} methods,
 * {@link io.github.mcpsubscriptions.resource.ResourceDefinition#getAccessRule()}) decide.
 *
 * @since 0.1.0
 */
public interface ResourceAccessPolicy {

	/** Allows everything. */
	ResourceAccessPolicy PERMIT_ALL = new ResourceAccessPolicy() {
	};

	/**
	 * Whether a caller may subscribe to a URI: by default what {@link #canRead} and
	 * {@link #canReceive} answer. A subscription itself is judged by what the caller may
	 * see (see above), so that a refusal cannot tell a hidden URI from one that does not
	 * exist.
	 * @param principal the authenticated caller, or {@code null}
	 * @param subscribedUri the URI subscribed to
	 * @return whether the subscription is allowed
	 */
	default boolean canSubscribe(@Nullable Principal principal, String subscribedUri) {
		return true;
	}

	/**
	 * Whether a caller may read a concrete resource, or see it in a listing. By default,
	 * whether it {@linkplain #canSubscribe may subscribe} to it.
	 * @param principal the authenticated caller, or {@code null}
	 * @param uri the resource's URI
	 * @return whether the read is allowed
	 */
	default boolean canRead(@Nullable Principal principal, String uri) {
		return canSubscribe(principal, uri);
	}

	/**
	 * Whether a caller may see a resource template in {@code resources/templates/list}.
	 * By default, yes: a template names a shape of URIs, and whether the caller may read
	 * a URI of that shape usually depends on its variables, which the listing does not
	 * have. Refuse it when the caller may read none of its URIs.
	 * @param principal the authenticated caller, or {@code null}
	 * @param uriTemplate the template, as registered
	 * @return whether the template is listed
	 */
	default boolean canListTemplate(@Nullable Principal principal, String uriTemplate) {
		return true;
	}

	/**
	 * Whether a subscriber may be told that a resource changed. By default, whether it
	 * {@linkplain #canSubscribe may subscribe} to the changed resource itself.
	 * @param principal the subscriber's authenticated principal, or {@code null}
	 * @param changedUri the changed resource
	 * @param subscribedUri the subscription that matched
	 * @return whether the notification may be sent
	 */
	default boolean canReceive(@Nullable Principal principal, String changedUri, String subscribedUri) {
		return canSubscribe(principal, changedUri);
	}

}
