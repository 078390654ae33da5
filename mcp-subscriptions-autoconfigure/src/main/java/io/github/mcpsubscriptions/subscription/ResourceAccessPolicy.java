package io.github.mcpsubscriptions.subscription;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

/**
 * Decides who may subscribe to what and be told of which changes. It is asked at
 * subscribe time ({@code resources/subscribe}, each URI of {@code subscriptions/listen})
 * and again for every notification, so a revoked permission stops notifications at once.
 * A refused subscription is reported as "not found", so that callers cannot probe which
 * URIs exist.
 * <p>
 * By default a notification about a changed resource is sent only if the subscriber could
 * subscribe to that resource itself: a policy that refuses {@code catalog://products/3}
 * therefore also keeps {@code catalog://products}, {@code catalog://products/{id}} and
 * pattern subscriptions from delivering it. The policy does not cover
 * {@code resources/read}, {@code resources/list} or the other methods: protect those
 * with the application's own security (Spring Security on the endpoint or methods).
 */
public interface ResourceAccessPolicy {

	/** Allows everything. */
	ResourceAccessPolicy PERMIT_ALL = new ResourceAccessPolicy() {
	};

	/**
	 * Whether a caller may subscribe to a URI.
	 * @param principal the authenticated caller, or {@code null}
	 * @param subscribedUri the URI subscribed to
	 * @return whether the subscription is allowed
	 */
	default boolean canSubscribe(@Nullable Principal principal, String subscribedUri) {
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
