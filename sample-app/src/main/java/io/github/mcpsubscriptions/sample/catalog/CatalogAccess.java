package io.github.mcpsubscriptions.sample.catalog;

import java.util.List;
import java.util.Set;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

/**
 * Which products are restricted (reading them needs scope {@code catalog:restricted} on
 * top of {@code catalog:read}), for the rules of the MCP resources and for what the
 * collection and the REST API show. Enforced where the MCP rules are
 * ({@code mcp.security.enabled}, on in profile {@code secure}).
 */
@Component("catalogAccess")
public class CatalogAccess {

	static final String RESTRICTED_AUTHORITY = "SCOPE_catalog:restricted";

	private static final Set<Long> RESTRICTED = Set.of(4L, 5L);

	private final boolean enforced;

	CatalogAccess(@Value("${mcp.security.enabled:true}") boolean enforced) {
		this.enforced = enforced;
	}

	/**
	 * Whether a product is restricted.
	 * @param id the product's id
	 * @return whether it is
	 */
	public boolean isRestricted(long id) {
		return RESTRICTED.contains(id);
	}

	/**
	 * Whether the current caller may read a product.
	 * @param id the product's id
	 * @return whether it may
	 */
	boolean mayRead(long id) {
		if (!this.enforced || !isRestricted(id)) {
			return true;
		}
		Authentication caller = SecurityContextHolder.getContext().getAuthentication();
		return caller != null && caller.getAuthorities()
			.stream()
			.anyMatch((authority) -> RESTRICTED_AUTHORITY.equals(authority.getAuthority()));
	}

	List<Product> readable(List<Product> products) {
		return products.stream().filter((product) -> mayRead(product.id())).toList();
	}

}
