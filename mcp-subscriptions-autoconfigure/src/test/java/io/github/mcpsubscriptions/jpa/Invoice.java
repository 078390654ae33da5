package io.github.mcpsubscriptions.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * An entity mapped through its superclass.
 */
@Entity
@Table(name = "shop_invoice")
public class Invoice extends Document {

	protected Invoice() {
	}

	public Invoice(String number) {
		super(number);
	}

}
