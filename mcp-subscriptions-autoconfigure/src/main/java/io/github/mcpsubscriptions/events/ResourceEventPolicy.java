package io.github.mcpsubscriptions.events;

import java.security.Principal;
import java.util.List;

import io.github.mcpsubscriptions.subscription.CoverageRules;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import org.jspecify.annotations.Nullable;

/**
 * The application's event policy, and for {@code resource.updated} the resource policy
 * too: a poll is a subscription to its {@code uri} ({@code canSubscribe}, after the URI
 * is checked as {@code resources/subscribe} checks it), and each change is received only
 * if the caller may read the changed resource ({@code canRead}), judged at every poll.
 */
final class ResourceEventPolicy implements McpEventAccessPolicy {

	private final McpEventAccessPolicy events;

	private final ResourceAccessPolicy resources;

	ResourceEventPolicy(McpEventAccessPolicy events, ResourceAccessPolicy resources) {
		this.events = events;
		this.resources = resources;
	}

	@Override
	public boolean canSee(@Nullable Principal principal, String eventType) {
		return this.events.canSee(principal, eventType);
	}

	@Override
	public boolean canSubscribe(@Nullable Principal principal, String eventType, @Nullable Object arguments) {
		if (arguments instanceof ResourceUpdated.Arguments resource && ResourceUpdated.NAME.equals(eventType)) {
			try {
				CoverageRules.validate(resource.uri());
			}
			catch (IllegalArgumentException ex) {
				throw EventsWire.invalidArguments(eventType, List.of("\"uri\": " + ex.getMessage()));
			}
			if (!this.resources.canSubscribe(principal, resource.uri())) {
				return false;
			}
		}
		return this.events.canSubscribe(principal, eventType, arguments);
	}

	@Override
	public boolean canReceive(@Nullable Principal principal, String eventType, Object event) {
		if (event instanceof ResourceUpdated updated && ResourceUpdated.NAME.equals(eventType)
				&& !this.resources.canRead(principal, updated.uri())) {
			return false;
		}
		return this.events.canReceive(principal, eventType, event);
	}

}
