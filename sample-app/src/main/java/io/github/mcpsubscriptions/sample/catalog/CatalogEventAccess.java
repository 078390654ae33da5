package io.github.mcpsubscriptions.sample.catalog;

import java.security.Principal;

import io.github.mcpsubscriptions.events.McpEventAccessPolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.security.core.Authentication;

/**
 * Who may poll and take webhooks of {@code catalog.product.changed}, by the same rules as
 * the product resources ({@link CatalogAccess}): subscribing needs {@code catalog:read},
 * and the events of a restricted product (4 and 5) reach only principals with
 * {@code catalog:restricted}, as if the others' subscriptions did not match. Judged with
 * the subscription's principal on every poll and, for webhooks, at subscribe and at each
 * delivery. ({@code resource.updated} follows the resources' own rules.) A bean where the
 * MCP rules are enforced ({@code mcp.security.enabled}, profile {@code secure}).
 */
public class CatalogEventAccess implements McpEventAccessPolicy {

	private static final String EVENT = "catalog.product.changed";

	private final CatalogAccess access;

	public CatalogEventAccess(CatalogAccess access) {
		this.access = access;
	}

	@Override
	public boolean canSubscribe(@Nullable Principal principal, String eventType, @Nullable Object arguments) {
		return !EVENT.equals(eventType) || has(principal, "SCOPE_catalog:read");
	}

	@Override
	public boolean canReceive(@Nullable Principal principal, String eventType, Object event) {
		if (event instanceof ProductChanged product && this.access.isRestricted(product.id())) {
			return has(principal, CatalogAccess.RESTRICTED_AUTHORITY);
		}
		return true;
	}

	private static boolean has(@Nullable Principal principal, String authority) {
		return principal instanceof Authentication authentication && authentication.getAuthorities()
			.stream()
			.anyMatch((granted) -> authority.equals(granted.getAuthority()));
	}

}
