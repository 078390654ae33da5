package io.github.mcpsubscriptions.events;

/**
 * A product changed: the event type of the draft's examples, with arguments.
 *
 * @param id the product's id
 * @param name its name
 * @param price its price
 * @param change what happened
 */
@McpEvent(name = "catalog.product.changed", description = "A product was created, updated or deleted",
		arguments = ProductFilter.class)
record ProductChanged(long id, String name, double price, Change change) implements McpEventMatcher<ProductFilter> {

	@Override
	public boolean matches(ProductFilter filter) {
		return (filter.id() == null || filter.id() == this.id)
				&& (filter.minPrice() == null || this.price >= filter.minPrice());
	}

	enum Change {

		created, updated, deleted

	}

}
