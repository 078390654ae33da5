package com.example.shop;

import java.util.List;
import java.util.Optional;

import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;

import org.springframework.stereotype.Component;

@Component
class OrderResources {

	private final OrderRepository orders;

	OrderResources(OrderRepository orders) {
		this.orders = orders;
	}

	@McpResource(uri = "shop://orders", description = "Every order as a JSON array")
	List<Order> orders() {
		return this.orders.findAll();
	}

	@McpResource(uri = "shop://orders/{id}", description = "One order as JSON")
	Optional<Order> order(long id) {
		return this.orders.findById(id);
	}

	@McpResourceInstances("shop://orders/{id}")
	List<Long> orderIds() {
		return this.orders.findAll().stream().map(Order::id).toList();
	}

}
