package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.prompt.InvalidMcpPromptException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports wrongly declared {@code @McpPrompt} methods as a start-up failure that lists
 * each mistake and says how to mend it, rather than as a stack trace.
 */
class InvalidMcpPromptFailureAnalyzer extends AbstractFailureAnalyzer<InvalidMcpPromptException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidMcpPromptException cause) {
		StringBuilder description = new StringBuilder("MCP prompts are declared wrongly:\n");
		cause.getProblems().forEach((problem) -> description.append("\n    - ").append(problem));
		return new FailureAnalysis(description.toString(),
				"Correct the @McpPrompt methods named above. Each parameter is an argument named after it (compile "
						+ "with -parameters) or by @McpPromptArgument, converted from a String; a PromptRequest or "
						+ "Principal parameter receives the request or the caller. Return a String, PromptContent, "
						+ "PromptMessage, a List of them or a PromptResult, and give every prompt a unique name.",
				cause);
	}

}
