package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.resource.InvalidMcpResourceException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports wrongly declared {@code @McpResource} methods as a start-up failure that lists
 * each mistake and says how to mend it, rather than as a stack trace.
 */
class InvalidMcpResourceFailureAnalyzer extends AbstractFailureAnalyzer<InvalidMcpResourceException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidMcpResourceException cause) {
		StringBuilder description = new StringBuilder("MCP resources are declared wrongly:\n");
		cause.getProblems().forEach((problem) -> description.append("\n    - ").append(problem));
		return new FailureAnalysis(description.toString(),
				"Correct the @McpResource and @McpResourceInstances methods named above. Template variables bind to "
						+ "parameters of the same name (compile with -parameters) or to @UriVariable parameters; a "
						+ "ResourceRequest parameter receives them all.",
				cause);
	}

}
