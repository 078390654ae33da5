package io.github.mcpsubscriptions.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A mapping whose variable names no property: the application must not start.
 */
@Entity
@Table(name = "shop_item")
@McpResourceEntity(uri = "shop://items/{sku}")
public class MisnamedVariable {

	@Id
	private Long id;

	private String code;

}
