package com.example.shop;

import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.stereotype.Component;

@Component
class OrderTools {

	private final OrderService service;

	OrderTools(OrderService service) {
		this.service = service;
	}

	@Tool(name = "ship_order", description = "Mark an order as shipped")
	String shipOrder(@ToolParam(description = "The order's id") long id) {
		return this.service.ship(id)
			.map((order) -> "Order " + id + " (" + order.item() + ") is shipped.")
			.orElse("There is no order " + id + ".");
	}

}
