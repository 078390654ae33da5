package io.github.mcpsubscriptions.sample.catalog;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@code catalog.product.changed}, both optional.
 *
 * @param id only this product
 * @param minPrice only products at least this expensive
 */
public record ProductFilter(@Nullable Integer id, @Nullable Double minPrice) {
}
