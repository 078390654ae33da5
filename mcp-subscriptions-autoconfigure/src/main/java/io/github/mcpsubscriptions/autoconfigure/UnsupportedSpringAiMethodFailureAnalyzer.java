package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.springai.UnsupportedSpringAiMethodException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports Spring AI MCP methods this server cannot serve as a start-up failure that names
 * each method and says what to do, rather than letting the first call fail.
 */
class UnsupportedSpringAiMethodFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedSpringAiMethodException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringAiMethodException cause) {
		StringBuilder description = new StringBuilder("Spring AI MCP methods that mcp-subscriptions cannot serve:\n");
		cause.getProblems().forEach((problem) -> description.append("\n    - ").append(problem));
		return new FailureAnalysis(description.toString(),
				"Change the methods named above. Take the arguments themselves (@McpToolParam, @McpArg), "
						+ "McpMeta, @McpProgressToken, McpTransportContext or the SDK's request types instead of "
						+ "McpSyncServerExchange, McpAsyncServerExchange, McpSyncRequestContext or "
						+ "McpAsyncRequestContext; for progress and log messages from a tool, implement "
						+ "io.github.mcpsubscriptions.tool.McpTool and use ToolCall.progress(). Return the value "
						+ "itself rather than a Mono or Flux. See docs/coming-from-spring-ai.md.",
				cause);
	}

}
