package io.github.mcpsubscriptions.notification;

import org.springframework.context.ApplicationEvent;

/**
 * Publish this when the set of resources changed in a way the server cannot see (the
 * instances a template lists, say): every client is sent
 * {@code notifications/resources/list_changed}. Adding or removing resources through the
 * {@code ResourceRegistry} does this by itself.
 *
 * @since 0.1.0
 */
public class ResourceListChangedEvent extends ApplicationEvent {

	public ResourceListChangedEvent(Object source) {
		super(source);
	}

}
