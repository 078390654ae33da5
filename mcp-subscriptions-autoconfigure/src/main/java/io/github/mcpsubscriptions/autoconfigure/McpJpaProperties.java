package io.github.mcpsubscriptions.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for changes from JPA.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("mcp.jpa")
public class McpJpaProperties {

	/**
	 * Whether committed JPA changes of entities annotated with @McpResourceEntity notify
	 * subscribers.
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
