package io.github.mcpsubscriptions.springai;

/**
 * Thrown at start-up when Spring AI's own MCP server auto-configuration is on the class
 * path beside this starter: the application would otherwise serve two MCP endpoints.
 *
 * @since 0.1.0
 */
public class SpringAiMcpServerPresentException extends IllegalStateException {

	private final String autoConfiguration;

	/**
	 * Create an exception.
	 * @param autoConfiguration the class name of Spring AI's auto-configuration found
	 */
	public SpringAiMcpServerPresentException(String autoConfiguration) {
		super("Spring AI's MCP server (" + autoConfiguration + ") is on the class path beside mcp-subscriptions");
		this.autoConfiguration = autoConfiguration;
	}

	/**
	 * The class name of Spring AI's auto-configuration found.
	 * @return the class name
	 */
	public String getAutoConfiguration() {
		return this.autoConfiguration;
	}

}
