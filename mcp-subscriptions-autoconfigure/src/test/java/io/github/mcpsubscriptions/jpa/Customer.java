package io.github.mcpsubscriptions.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An entity whose resource is named by a property other than its identifier.
 */
@Entity
@Table(name = "shop_customer")
@McpResourceEntity(uri = "shop://customers/{handle}{?region}")
public class Customer {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String handle;

	private String region;

	protected Customer() {
	}

	public Customer(String handle, String region) {
		this.handle = handle;
		this.region = region;
	}

	public Long getId() {
		return this.id;
	}

	public void setHandle(String handle) {
		this.handle = handle;
	}

	public void setRegion(String region) {
		this.region = region;
	}

}
