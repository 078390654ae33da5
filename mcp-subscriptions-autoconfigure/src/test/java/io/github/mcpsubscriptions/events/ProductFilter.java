package io.github.mcpsubscriptions.events;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@link ProductChanged}: both optional.
 *
 * @param id only this product
 * @param minPrice only products at least this expensive
 */
record ProductFilter(@Nullable Integer id, @Nullable Double minPrice) {
}
