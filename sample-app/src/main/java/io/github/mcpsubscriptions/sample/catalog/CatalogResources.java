package io.github.mcpsubscriptions.sample.catalog;

import java.util.List;
import java.util.Optional;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Component;

/**
 * The catalogue as MCP resources: the collection and one resource per product.
 */
@Component
public class CatalogResources {

	private final ProductRepository products;

	private final CatalogAccess access;

	public CatalogResources(ProductRepository products, CatalogAccess access) {
		this.products = products;
		this.access = access;
	}

	@McpResource(uri = "catalog://products", name = "products", title = "All products",
			description = "Every product of the catalogue as a JSON array. Subscribe to it to hear of any product change.")
	@PreAuthorize("hasAuthority('SCOPE_catalog:read')")
	public List<Product> products() {
		// The collection's contents are this method's business: it shows what the caller
		// may read.
		return this.access.readable(this.products.findAll());
	}

	@McpResource(uri = "catalog://products/{id}", name = "product", title = "A product",
			description = "One product as JSON: id, name and price.")
	@PreAuthorize("hasAuthority('SCOPE_catalog:read') and "
			+ "(!@catalogAccess.isRestricted(#id) or hasAuthority('SCOPE_catalog:restricted'))")
	public Optional<Product> product(long id) {
		return this.products.findById(id);
	}

	@McpResourceInstances("catalog://products/{id}")
	public List<Long> productIds() {
		return this.products.findAllIds();
	}

}
