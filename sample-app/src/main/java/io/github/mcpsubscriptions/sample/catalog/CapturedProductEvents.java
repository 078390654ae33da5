package io.github.mcpsubscriptions.sample.catalog;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsubscriptions.capture.CapturedChangeAttributes;
import io.github.mcpsubscriptions.notification.ResourceChange;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Where the database captures the catalogue's changes (profile {@code postgres}): the one
 * source of {@code catalog.product.changed}, so that a change by any writer (the REST
 * API, another service, an operator in {@code psql}) is one event, and a REST write is
 * not two ({@link CatalogService} then publishes none). The capture asks this bean for
 * the attributes of each change it reads, once per change on the node that reads (in a
 * cluster, the one holding the capture's lease), after commit: it answers with the
 * product's name, as the REST API's own resource changes carry it, and publishes the
 * event.
 * <p>
 * The capture records only the key of a row, so the name and price are read here: for a
 * creation or an update, the row as the capture's reader finds it just after the commit
 * (two updates read in one batch both show the second's values); for a deletion, the last
 * values this node saw (a product created and deleted while the application was down has
 * none, and its event says only its id). A reader that stops after recording an event but
 * before the capture moved its position on records that event again when the batch is
 * read again: at least once, as the draft promises.
 */
public class CapturedProductEvents implements CapturedChangeAttributes {

	private static final String PREFIX = "catalog://products/";

	private final ProductRepository products;

	private final ApplicationEventPublisher events;

	/** The last values seen of each product, for the event of its deletion. */
	private final Map<Long, Product> known = new ConcurrentHashMap<>();

	public CapturedProductEvents(ProductRepository products, ApplicationEventPublisher events) {
		this.products = products;
		this.events = events;
		// The database has been initialized: the capture starts reading after this.
		this.products.findAll().forEach((product) -> this.known.put(product.id(), product));
	}

	@Override
	public Map<String, Object> attributes(String table, String uri, String change) {
		if (!"product".equals(table) || !uri.startsWith(PREFIX)) {
			return Map.of();
		}
		long id = Long.parseLong(uri.substring(PREFIX.length()));
		Product product;
		if (ResourceChange.DELETED.equals(change)) {
			product = this.known.remove(id);
		}
		else {
			product = this.products.findById(id).orElse(this.known.get(id));
			if (product != null) {
				this.known.put(id, product);
			}
		}
		ProductChanged.Change what = ProductChanged.Change.valueOf(change);
		this.events.publishEvent((product != null) ? new ProductChanged(id, product.name(), product.price(), what)
				: new ProductChanged(id, null, null, what));
		return (product != null) ? Map.of("name", product.name()) : Map.of();
	}

}
