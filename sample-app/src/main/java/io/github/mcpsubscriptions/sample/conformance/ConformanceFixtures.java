package io.github.mcpsubscriptions.sample.conformance;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsubscriptions.notification.ResourceChangedEvent;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The resources the official MCP conformance suite reads, active only under the Spring
 * profile {@code conformance} (see {@code .ci/conformance.sh}).
 * <p>
 * {@code test://watched-resource} changes every 3 seconds, and
 * {@code test://dynamic-resource} appears 2 seconds after the application is ready; both
 * run on a single daemon thread owned by this bean.
 */
@Component
@Profile("conformance")
public class ConformanceFixtures implements DisposableBean {

	static final String STATIC_TEXT = "This is the content of the static text resource.";

	/** A 1x1 PNG image. */
	static final String STATIC_BINARY_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

	static final String WATCHED_URI = "test://watched-resource";

	static final String DYNAMIC_URI = "test://dynamic-resource";

	private static final Log logger = LogFactory.getLog(ConformanceFixtures.class);

	private final ResourceRegistry registry;

	private final ApplicationEventPublisher events;

	private final ScheduledExecutorService executor;

	private final AtomicBoolean started = new AtomicBoolean();

	public ConformanceFixtures(ResourceRegistry registry, ApplicationEventPublisher events) {
		this.registry = registry;
		this.events = events;
		this.executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "conformance-fixtures");
			thread.setDaemon(true);
			return thread;
		});
	}

	@McpResource(uri = "test://static-text", name = "static-text", title = "Static text",
			description = "A static text resource for the conformance suite.", mimeType = "text/plain")
	public String staticText() {
		return STATIC_TEXT;
	}

	@McpResource(uri = "test://static-binary", name = "static-binary", title = "Static binary",
			description = "A static binary resource (a 1x1 PNG image) for the conformance suite.",
			mimeType = "image/png")
	public byte[] staticBinary() {
		return Base64.getDecoder().decode(STATIC_BINARY_BASE64);
	}

	@McpResource(uri = "test://template/{id}/data", name = "template-data", title = "Template data",
			description = "A resource template with one variable, as JSON, for the conformance suite.",
			mimeType = "application/json")
	public Map<String, Object> templateData(String id) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("id", id);
		data.put("templateTest", true);
		data.put("data", "Data for ID: " + id);
		return data;
	}

	@McpResource(uri = WATCHED_URI, name = "watched-resource", title = "Watched resource",
			description = "A subscribable resource that changes every 3 seconds.", mimeType = "text/plain")
	public String watchedResource() {
		return "Watched resource content";
	}

	@EventListener(ApplicationReadyEvent.class)
	void start() {
		if (!this.started.compareAndSet(false, true)) {
			return;
		}
		this.executor.scheduleAtFixedRate(this::touchWatchedResource, 3, 3, TimeUnit.SECONDS);
		this.executor.schedule(this::registerDynamicResource, 2, TimeUnit.SECONDS);
	}

	private void touchWatchedResource() {
		try {
			this.events.publishEvent(new ResourceChangedEvent(WATCHED_URI));
		}
		catch (RuntimeException ex) {
			// A periodic task that throws is never run again: log and carry on.
			logger.warn("Could not publish a change of " + WATCHED_URI, ex);
		}
	}

	private void registerDynamicResource() {
		try {
			this.registry.register(ResourceDefinition.builder(DYNAMIC_URI, (request) -> "Dynamic resource content")
				.name("dynamic-resource")
				.title("Dynamic resource")
				.description("A resource registered at run time, 2 seconds after start.")
				.mimeType("text/plain")
				.build());
		}
		catch (RuntimeException ex) {
			logger.warn("Could not register " + DYNAMIC_URI, ex);
		}
	}

	@Override
	public void destroy() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(5, TimeUnit.SECONDS);
	}

}
