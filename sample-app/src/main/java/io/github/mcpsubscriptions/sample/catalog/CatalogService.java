package io.github.mcpsubscriptions.sample.catalog;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Changes to the catalogue, each in a transaction. Every change publishes a
 * {@link ResourceChangedEvent} for the product's URI; subscribers are told after the
 * transaction commits, and never if it rolls back. In profile {@code postgres} the
 * database captures every committed change of table {@code product}, these included, and
 * the starter drops these events for the URIs the capture reports, so that each commit is
 * notified once. Every change also publishes a {@link ProductChanged}, the MCP event
 * {@code catalog.product.changed}, recorded after commit too; except where the database
 * captures the catalogue: {@link CapturedProductEvents} then publishes it for every
 * writer's changes, these included, once each.
 */
@Service
public class CatalogService {

	private final ProductRepository products;

	private final ApplicationEventPublisher events;

	/** Whether the capture publishes the product events (of every writer). */
	private final boolean captured;

	public CatalogService(ProductRepository products, ApplicationEventPublisher events,
			ObjectProvider<CapturedProductEvents> captured) {
		this.products = products;
		this.events = events;
		this.captured = captured.getIfAvailable() != null;
	}

	@Transactional
	public Optional<Product> update(long id, String name, BigDecimal price) {
		if (!this.products.update(id, name, price)) {
			return Optional.empty();
		}
		changed(id, "updated", name);
		productChanged(new ProductChanged(id, name, price, ProductChanged.Change.updated));
		return this.products.findById(id);
	}

	@Transactional
	public Product create(String name, BigDecimal price) {
		long id = this.products.insert(name, price);
		// "created" (and "deleted" below) also tells list listeners that the list
		// changed:
		// catalog://products/{id} lists its instances.
		changed(id, "created", name);
		productChanged(new ProductChanged(id, name, price, ProductChanged.Change.created));
		return this.products.findById(id).orElseThrow();
	}

	@Transactional
	public boolean delete(long id) {
		Optional<Product> product = this.products.findById(id);
		if (product.isEmpty() || !this.products.delete(id)) {
			return false;
		}
		changed(id, Map.of("change", "deleted"));
		productChanged(
				new ProductChanged(id, product.get().name(), product.get().price(), ProductChanged.Change.deleted));
		return true;
	}

	private void productChanged(ProductChanged event) {
		if (!this.captured) {
			this.events.publishEvent(event);
		}
	}

	private void changed(long id, String change, String name) {
		// The new name tells clients (and the cluster harness) which change this was.
		changed(id, Map.of("change", change, "name", name));
	}

	private void changed(long id, Map<String, Object> attributes) {
		this.events.publishEvent(new ResourceChangedEvent("catalog://products/" + id, attributes));
	}

}
