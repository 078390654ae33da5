package com.example.shop;

public record Order(long id, String item, String status) {

	Order shipped() {
		return new Order(this.id, this.item, "shipped");
	}

}
