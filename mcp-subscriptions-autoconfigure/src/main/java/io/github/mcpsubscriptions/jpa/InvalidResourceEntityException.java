package io.github.mcpsubscriptions.jpa;

import java.util.List;

/**
 * {@link McpResourceEntity} mappings that cannot be filled from their entities; the
 * application does not start.
 *
 * @since 0.1.0
 */
public class InvalidResourceEntityException extends IllegalStateException {

	private final List<String> problems;

	public InvalidResourceEntityException(List<String> problems) {
		super("Invalid @McpResourceEntity mappings:\n - " + String.join("\n - ", problems));
		this.problems = List.copyOf(problems);
	}

	/**
	 * Each mistake found, naming the entity and what is wrong.
	 * @return the problems
	 */
	public List<String> getProblems() {
		return this.problems;
	}

}
