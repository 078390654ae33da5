package io.github.mcpsubscriptions.subscription;

import java.security.Principal;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Decides per notification whether a matching subscription is told of a change, for
 * example by the change's attributes or the subscriber's principal. Every filter bean
 * must agree.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface SubscriptionFilter {

	/**
	 * Whether to notify.
	 * @param candidate the change and the subscription it matched
	 * @return {@code false} to leave this notification out
	 */
	boolean shouldNotify(Candidate candidate);

	/**
	 * A notification about to be queued.
	 *
	 * @param changedUri the changed resource
	 * @param subscribedUri the subscription that matched
	 * @param attributes the change's attributes (version, timestamp, ...)
	 * @param principal the subscriber's authenticated principal, or {@code null}
	 */
	record Candidate(String changedUri, String subscribedUri, Map<String, Object> attributes,
			@Nullable Principal principal) {
	}

}
