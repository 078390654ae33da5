package io.github.mcpsubscriptions.events;

import org.springframework.context.ApplicationEvent;

/**
 * A classic {@link ApplicationEvent} without arguments: its source is not its payload.
 */
@McpEvent(name = "test.audit", description = "Something was audited")
class AuditEvent extends ApplicationEvent {

	private final String action;

	AuditEvent(Object source, String action) {
		super(source);
		this.action = action;
	}

	public String getAction() {
		return this.action;
	}

}
