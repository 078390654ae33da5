package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.capture.InvalidCaptureException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a change capture that does not fit the database as a start-up failure that
 * lists each mistake and says how to mend it.
 */
class InvalidCaptureFailureAnalyzer extends AbstractFailureAnalyzer<InvalidCaptureException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidCaptureException cause) {
		StringBuilder description = new StringBuilder(
				"The MCP change capture (mcp.capture.*) is configured wrongly:\n");
		cause.getProblems().forEach((problem) -> description.append("\n    - ").append(problem));
		return new FailureAnalysis(description.toString(),
				"Correct mcp.capture.tables: each key must name a table of the application's PostgreSQL database "
						+ "(schema-qualified keys in brackets, such as mcp.capture.tables[sales.orders]) and each "
						+ "variable of its URI template a column of that table; or set mcp.capture.enabled=false.",
				cause);
	}

}
