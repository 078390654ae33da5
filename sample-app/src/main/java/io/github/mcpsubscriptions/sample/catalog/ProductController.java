package io.github.mcpsubscriptions.sample.catalog;

import java.math.BigDecimal;
import java.net.URI;
import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The catalogue's REST API: what people and other systems use to change products.
 */
@RestController
@RequestMapping("/api/products")
public class ProductController {

	private final ProductRepository products;

	private final CatalogService catalog;

	private final CatalogAccess access;

	public ProductController(ProductRepository products, CatalogService catalog, CatalogAccess access) {
		this.products = products;
		this.catalog = catalog;
		this.access = access;
	}

	@GetMapping
	public List<Product> list() {
		return this.access.readable(this.products.findAll());
	}

	@GetMapping("/{id}")
	public Product get(@PathVariable long id) {
		return this.products.findById(id).filter((product) -> this.access.mayRead(id)).orElseThrow(() -> notFound(id));
	}

	@PutMapping("/{id}")
	public Product update(@PathVariable long id, @RequestBody ProductChange change) {
		change.validate();
		return this.catalog.update(id, change.name(), change.price()).orElseThrow(() -> notFound(id));
	}

	@PostMapping
	public ResponseEntity<Product> create(@RequestBody ProductChange change) {
		change.validate();
		Product product = this.catalog.create(change.name(), change.price());
		return ResponseEntity.created(URI.create("/api/products/" + product.id())).body(product);
	}

	@DeleteMapping("/{id}")
	public ResponseEntity<Void> delete(@PathVariable long id) {
		if (!this.catalog.delete(id)) {
			throw notFound(id);
		}
		return ResponseEntity.noContent().build();
	}

	private static ResponseStatusException notFound(long id) {
		return new ResponseStatusException(HttpStatus.NOT_FOUND, "No product " + id);
	}

	/**
	 * The body of PUT and POST.
	 *
	 * @param name the new name
	 * @param price the new price
	 */
	public record ProductChange(String name, BigDecimal price) {

		void validate() {
			if (this.name == null || this.name.isBlank() || this.name.length() > 200) {
				throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "name must have 1 to 200 characters");
			}
			if (this.price == null || this.price.signum() < 0) {
				throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "price must be zero or more");
			}
		}

	}

}
