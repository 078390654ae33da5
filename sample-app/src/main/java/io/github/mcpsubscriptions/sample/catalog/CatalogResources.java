package io.github.mcpsubscriptions.sample.catalog;

import java.util.List;
import java.util.Optional;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;

import org.springframework.stereotype.Component;

/**
 * The catalogue as MCP resources: the collection and one resource per product.
 */
@Component
public class CatalogResources {

	private final ProductRepository products;

	public CatalogResources(ProductRepository products) {
		this.products = products;
	}

	@McpResource(uri = "catalog://products", name = "products", title = "All products",
			description = "Every product of the catalogue as a JSON array. Subscribe to it to hear of any product change.")
	public List<Product> products() {
		return this.products.findAll();
	}

	@McpResource(uri = "catalog://products/{id}", name = "product", title = "A product",
			description = "One product as JSON: id, name and price.")
	public Optional<Product> product(long id) {
		return this.products.findById(id);
	}

	@McpResourceInstances("catalog://products/{id}")
	public List<Long> productIds() {
		return this.products.findAllIds();
	}

}
