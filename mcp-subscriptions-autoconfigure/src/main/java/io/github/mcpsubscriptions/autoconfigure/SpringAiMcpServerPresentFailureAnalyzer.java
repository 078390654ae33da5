package io.github.mcpsubscriptions.autoconfigure;

import io.github.mcpsubscriptions.springai.SpringAiMcpServerPresentException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports Spring AI's MCP server on the class path beside this starter as a start-up
 * failure that says which dependency to remove: both would serve MCP.
 */
class SpringAiMcpServerPresentFailureAnalyzer extends AbstractFailureAnalyzer<SpringAiMcpServerPresentException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, SpringAiMcpServerPresentException cause) {
		return new FailureAnalysis("Spring AI's MCP server (" + cause.getAutoConfiguration()
				+ ") is on the class path beside mcp-subscriptions: the application would serve two MCP servers, "
				+ "one whose resources cannot be subscribed to.",
				"Remove Spring AI's MCP server starter (spring-ai-starter-mcp-server-webmvc, "
						+ "spring-ai-starter-mcp-server-webflux or spring-ai-starter-mcp-server) from the build. "
						+ "Keep spring-ai-mcp-annotations: mcp-subscriptions serves its @McpTool, @McpResource, "
						+ "@McpPrompt and @McpComplete methods. Or set mcp.enabled=false to keep Spring AI's server "
						+ "alone.",
				cause);
	}

}
