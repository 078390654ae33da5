package io.github.mcpsubscriptions.prompt;

import java.util.List;

/**
 * {@link McpPrompt} methods are declared wrongly; the application does not start.
 *
 * @since 0.1.0
 */
public class InvalidMcpPromptException extends IllegalStateException {

	private final List<String> problems;

	public InvalidMcpPromptException(List<String> problems) {
		super("Invalid MCP prompt declarations:\n - " + String.join("\n - ", problems));
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
