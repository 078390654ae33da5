package com.example.shop;

import java.util.Map;
import java.util.Optional;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;

@Service
public class OrderService {

	private final OrderRepository orders;

	private final ApplicationEventPublisher events;

	OrderService(OrderRepository orders, ApplicationEventPublisher events) {
		this.orders = orders;
		this.events = events;
	}

	public Optional<Order> ship(long id) {
		Optional<Order> shipped = this.orders.markShipped(id);
		// Inside a transaction the event would go out after commit, and not at all on rollback.
		shipped.ifPresent((order) -> this.events
			.publishEvent(new ResourceChangedEvent("shop://orders/" + id, Map.of("status", "shipped"))));
		return shipped;
	}

}
