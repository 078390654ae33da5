package io.github.mcpsubscriptions.sample.catalog;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Component;

/**
 * The catalogue's tools, written with Spring AI's {@code @Tool} and served on
 * {@code /mcp} beside the resources (see {@code CatalogToolsConfiguration}). A price
 * changed by {@code change_price} goes through {@link CatalogService}, which publishes a
 * {@code ResourceChangedEvent} after the commit, so whoever subscribed to the product (or
 * the collection) is told of the tool's effect. In profile {@code secure}, each tool's
 * {@code @PreAuthorize} decides who sees and calls it.
 */
@Component
public class CatalogTools {

	private static final int MAX_RESULTS = 20;

	private final ProductRepository products;

	private final CatalogService catalog;

	private final CatalogAccess access;

	public CatalogTools(ProductRepository products, CatalogService catalog, CatalogAccess access) {
		this.products = products;
		this.catalog = catalog;
		this.access = access;
	}

	@Tool(name = "find_products",
			description = "Find catalogue products whose name contains the given text (case-insensitive). "
					+ "Returns at most 20 products with their id, name and price; "
					+ "read catalog://products/{id} for one product.")
	@PreAuthorize("hasAuthority('SCOPE_catalog:read')")
	public List<Product> findProducts(@ToolParam(description = "Text the product name contains") String query) {
		String needle = query.toLowerCase(Locale.ROOT);
		// The tool runs on the request's thread: the caller's restricted products stay
		// hidden.
		return this.access.readable(this.products.findAll())
			.stream()
			.filter((product) -> product.name().toLowerCase(Locale.ROOT).contains(needle))
			.limit(MAX_RESULTS)
			.toList();
	}

	@Tool(name = "change_price",
			description = "Change the price of one catalogue product. Clients subscribed to "
					+ "catalog://products/{id} or catalog://products are notified of the change.")
	@PreAuthorize("hasAuthority('SCOPE_catalog:write')")
	public String changePrice(@ToolParam(description = "The product's id") long id,
			@ToolParam(description = "The new price, at least 0") BigDecimal price) {
		if (price.signum() < 0) {
			return "The price must not be negative.";
		}
		Product product = this.products.findById(id).filter((found) -> this.access.mayRead(found.id())).orElse(null);
		if (product == null) {
			return "There is no product " + id + ".";
		}
		return this.catalog.update(id, product.name(), price)
			.map((updated) -> "The price of product " + id + " (" + updated.name() + ") is now " + updated.price()
					+ ".")
			.orElse("There is no product " + id + ".");
	}

}
