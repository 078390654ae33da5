package io.github.mcpsubscriptions.interop.jetty;

import java.util.Map;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * The smallest application the starter serves: one resource, and a way to change it.
 */
@SpringBootApplication
class JettyApplication {

	static final String URI = "jetty://items";

	@Component
	static class Items {

		private final ApplicationEventPublisher events;

		Items(ApplicationEventPublisher events) {
			this.events = events;
		}

		@McpResource(uri = URI, description = "Every item")
		String all() {
			return "[]";
		}

		void changed(int version) {
			this.events.publishEvent(new ResourceChangedEvent(URI, Map.of("version", version)));
		}

	}

}
