package io.github.mcpsubscriptions.interop.javasdk1x;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * The server the 1.x client talks to: the starter and a small catalogue, a collection and
 * a template, like the sample application's.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class InteropApplication {

	@Bean
	Catalog catalog(ApplicationEventPublisher events) {
		return new Catalog(events);
	}

	static class Catalog {

		private final ConcurrentMap<Long, String> names = new ConcurrentHashMap<>(
				Map.of(1L, "Desk lamp", 2L, "Notebook", 3L, "Fountain pen", 4L, "Desk chair"));

		private final ApplicationEventPublisher events;

		Catalog(ApplicationEventPublisher events) {
			this.events = events;
		}

		@McpResource(uri = "catalog://products", name = "products")
		Map<Long, String> products() {
			return Map.copyOf(this.names);
		}

		@McpResource(uri = "catalog://products/{id}", name = "product")
		Optional<String> product(long id) {
			return Optional.ofNullable(this.names.get(id));
		}

		@McpResourceInstances("catalog://products/{id}")
		List<Long> ids() {
			return List.copyOf(this.names.keySet());
		}

		void rename(long id, String name) {
			this.names.put(id, name);
			this.events.publishEvent(new ResourceChangedEvent("catalog://products/" + id, Map.of()));
		}

	}

}
