package io.github.mcpsubscriptions.sample.catalog;

import java.math.BigDecimal;

import io.github.mcpsubscriptions.events.McpEvent;
import io.github.mcpsubscriptions.events.McpEventMatcher;
import org.jspecify.annotations.Nullable;

/**
 * A product was created, updated or deleted: the MCP event type
 * {@code catalog.product.changed}, which clients poll with optional arguments
 * ({@link ProductFilter}). Published by {@link CatalogService} beside the resource
 * change, so it is recorded after commit and never on rollback; where the database
 * captures the catalogue (profile {@code postgres}), by {@link CapturedProductEvents} for
 * every writer's change instead. A record, so that every node of a cluster can rebuild it
 * from its payload.
 *
 * @param id the product's id
 * @param name its name ({@code null} only for the deletion of a product the capture never
 * saw, see {@link CapturedProductEvents})
 * @param price its price (the same)
 * @param change what happened
 */
@McpEvent(name = "catalog.product.changed", description = "A product of the catalogue was created, updated or deleted",
		delivery = { McpEvent.Delivery.POLL, McpEvent.Delivery.PUSH, McpEvent.Delivery.WEBHOOK },
		arguments = ProductFilter.class)
public record ProductChanged(long id, @Nullable String name, @Nullable BigDecimal price,
		Change change) implements McpEventMatcher<ProductFilter> {

	@Override
	public boolean matches(ProductFilter filter) {
		return (filter.id() == null || filter.id() == this.id) && (filter.minPrice() == null
				|| this.price != null && this.price.compareTo(BigDecimal.valueOf(filter.minPrice())) >= 0);
	}

	/** What happened to the product. */
	public enum Change {

		/** It was added. */
		created,

		/** Its name or price changed. */
		updated,

		/** It was removed. */
		deleted

	}

}
