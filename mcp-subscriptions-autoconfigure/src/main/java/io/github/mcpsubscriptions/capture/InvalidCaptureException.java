package io.github.mcpsubscriptions.capture;

import java.util.List;

/**
 * Thrown at start-up when the change capture is configured wrongly: a table or column
 * that does not exist, an invalid template, a database it cannot capture.
 *
 * @since 0.1.0
 */
public class InvalidCaptureException extends RuntimeException {

	private final List<String> problems;

	public InvalidCaptureException(List<String> problems) {
		super("The MCP change capture is configured wrongly: " + String.join("; ", problems));
		this.problems = List.copyOf(problems);
	}

	/**
	 * What is wrong, one sentence each.
	 * @return the problems
	 */
	public List<String> getProblems() {
		return this.problems;
	}

}
