package io.github.mcpsubscriptions.sample.catalog;

import java.math.BigDecimal;
import java.util.Optional;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Changes to the catalogue, each in a transaction.
 */
@Service
public class CatalogService {

	private final ProductRepository products;

	public CatalogService(ProductRepository products) {
		this.products = products;
	}

	@Transactional
	public Optional<Product> update(long id, String name, BigDecimal price) {
		if (!this.products.update(id, name, price)) {
			return Optional.empty();
		}
		return this.products.findById(id);
	}

	@Transactional
	public Product create(String name, BigDecimal price) {
		long id = this.products.insert(name, price);
		return this.products.findById(id).orElseThrow();
	}

	@Transactional
	public boolean delete(long id) {
		return this.products.delete(id);
	}

}
