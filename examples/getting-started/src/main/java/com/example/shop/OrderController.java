package com.example.shop;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class OrderController {

	private final OrderService service;

	OrderController(OrderService service) {
		this.service = service;
	}

	@PostMapping("/orders/{id}/ship")
	ResponseEntity<Order> ship(@PathVariable long id) {
		return ResponseEntity.of(this.service.ship(id));
	}

}
