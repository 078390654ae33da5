package com.example.shop;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

import org.springframework.stereotype.Repository;

/**
 * Orders in memory, so that the guide needs no database; yours would be a Spring Data
 * repository.
 */
@Repository
public class OrderRepository {

	private final Map<Long, Order> orders = new ConcurrentSkipListMap<>(Map.of(
			1L, new Order(1, "Fountain pen", "new"),
			2L, new Order(2, "Notebook", "new"),
			42L, new Order(42, "Ink, blue", "new")));

	public Optional<Order> findById(long id) {
		return Optional.ofNullable(this.orders.get(id));
	}

	public List<Order> findAll() {
		return List.copyOf(this.orders.values());
	}

	public Optional<Order> markShipped(long id) {
		return Optional.ofNullable(this.orders.computeIfPresent(id, (key, order) -> order.shipped()));
	}

}
