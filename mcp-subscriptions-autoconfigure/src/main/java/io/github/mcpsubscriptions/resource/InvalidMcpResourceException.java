package io.github.mcpsubscriptions.resource;

import java.util.List;

/**
 * {@link McpResource} or {@link McpResourceInstances} methods are declared wrongly; the
 * application does not start.
 *
 * @since 0.1.0
 */
public class InvalidMcpResourceException extends IllegalStateException {

	private final List<String> problems;

	public InvalidMcpResourceException(List<String> problems) {
		super("Invalid MCP resource declarations:\n - " + String.join("\n - ", problems));
		this.problems = List.copyOf(problems);
	}

	/**
	 * Each mistake found, naming the method and what is wrong.
	 * @return the problems
	 */
	public List<String> getProblems() {
		return this.problems;
	}

}
