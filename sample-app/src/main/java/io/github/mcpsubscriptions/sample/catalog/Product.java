package io.github.mcpsubscriptions.sample.catalog;

import java.math.BigDecimal;

/**
 * A product of the catalogue.
 *
 * @param id the id
 * @param name the name
 * @param price the price
 */
public record Product(long id, String name, BigDecimal price) {

}
