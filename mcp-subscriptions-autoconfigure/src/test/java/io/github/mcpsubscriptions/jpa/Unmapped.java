package io.github.mcpsubscriptions.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An entity without a resource: its changes publish nothing.
 */
@Entity
@Table(name = "shop_note")
public class Unmapped {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String text;

	protected Unmapped() {
	}

	public Unmapped(String text) {
		this.text = text;
	}

}
