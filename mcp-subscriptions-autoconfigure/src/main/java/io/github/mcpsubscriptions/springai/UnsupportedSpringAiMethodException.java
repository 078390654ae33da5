package io.github.mcpsubscriptions.springai;

import java.util.List;

/**
 * Thrown at start-up when methods annotated with Spring AI's MCP server annotations
 * cannot be served by this server, such as one that takes the MCP Java SDK's server
 * exchange. Lists every such method at once.
 *
 * @since 0.1.0
 */
public class UnsupportedSpringAiMethodException extends IllegalStateException {

	private final List<String> problems;

	/**
	 * Create an exception.
	 * @param problems one line per method, naming it and what it needs
	 */
	public UnsupportedSpringAiMethodException(List<String> problems) {
		super("Spring AI MCP methods this server cannot serve: " + String.join("; ", problems));
		this.problems = List.copyOf(problems);
	}

	/**
	 * One line per method this server cannot serve.
	 * @return the problems
	 */
	public List<String> getProblems() {
		return this.problems;
	}

}
