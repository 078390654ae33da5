package io.github.mcpsubscriptions.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An entity whose resource is named by its identifier.
 */
@Entity
@Table(name = "shop_order")
@McpResourceEntity(uri = "shop://orders/{id}")
public class ShopOrder {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String status;

	protected ShopOrder() {
	}

	public ShopOrder(String status) {
		this.status = status;
	}

	public Long getId() {
		return this.id;
	}

	public String getStatus() {
		return this.status;
	}

	public void setStatus(String status) {
		this.status = status;
	}

}
