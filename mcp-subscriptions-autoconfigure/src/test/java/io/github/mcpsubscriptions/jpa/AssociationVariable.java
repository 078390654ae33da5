package io.github.mcpsubscriptions.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/**
 * A mapping whose variable names an association: the application must not start.
 */
@Entity
@Table(name = "shop_line")
@McpResourceEntity(uri = "shop://lines/{order}")
public class AssociationVariable {

	@Id
	private Long id;

	@ManyToOne
	private ShopOrder order;

}
