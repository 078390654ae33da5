package io.github.mcpsubscriptions.jpa;

import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/**
 * A mapped superclass that carries the mapping for the entities that extend it.
 */
@MappedSuperclass
@McpResourceEntity(uri = "shop://documents/{number}")
public abstract class Document {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String number;

	protected Document() {
	}

	protected Document(String number) {
		this.number = number;
	}

}
