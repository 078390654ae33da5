package io.github.mcpsubscriptions.resource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The resources and resource templates the server offers: those of {@link McpResource}
 * methods, and any added at run time. Adding or removing one tells the
 * {@link ResourceRegistryListener}s, which send {@code list_changed} to clients.
 * <p>
 * A concrete URI resolves to the static resource with exactly that URI, else to the most
 * specific matching template ({@link UriTemplate#SPECIFICITY}).
 *
 * @since 0.1.0
 */
public class ResourceRegistry {

	private static final Log logger = LogFactory.getLog(ResourceRegistry.class);

	private final List<ResourceRegistryListener> listeners = new CopyOnWriteArrayList<>();

	private volatile Snapshot snapshot = Snapshot.of(Map.of());

	/**
	 * Add a resource or template.
	 * @param definition the definition
	 * @throws IllegalStateException if one with the same URI is registered already
	 */
	public void register(ResourceDefinition definition) {
		synchronized (this) {
			Snapshot current = this.snapshot;
			ResourceDefinition existing = current.byUri().get(definition.getUri());
			if (existing != null) {
				throw new IllegalStateException("Duplicate MCP " + definition + ": it is registered already");
			}
			Map<String, ResourceDefinition> byUri = new HashMap<>(current.byUri());
			byUri.put(definition.getUri(), definition);
			this.snapshot = Snapshot.of(byUri);
		}
		changed();
	}

	/**
	 * Replace a resource or template with the same URI, or add it.
	 * @param definition the definition
	 */
	public void registerOrReplace(ResourceDefinition definition) {
		synchronized (this) {
			Map<String, ResourceDefinition> byUri = new HashMap<>(this.snapshot.byUri());
			byUri.put(definition.getUri(), definition);
			this.snapshot = Snapshot.of(byUri);
		}
		changed();
	}

	/**
	 * Remove a resource or template.
	 * @param uri its URI or template text
	 * @return whether there was one
	 */
	public boolean unregister(String uri) {
		synchronized (this) {
			if (!this.snapshot.byUri().containsKey(uri)) {
				return false;
			}
			Map<String, ResourceDefinition> byUri = new HashMap<>(this.snapshot.byUri());
			byUri.remove(uri);
			this.snapshot = Snapshot.of(byUri);
		}
		changed();
		return true;
	}

	private void changed() {
		for (ResourceRegistryListener listener : this.listeners) {
			try {
				listener.resourceListChanged();
			}
			catch (RuntimeException ex) {
				logger.warn("Resource registry listener " + listener + " failed", ex);
			}
		}
	}

	public void addListener(ResourceRegistryListener listener) {
		this.listeners.add(listener);
	}

	/**
	 * The definition registered for a URI or template text.
	 * @param uri the URI or template text
	 * @return the definition, or {@code null}
	 */
	public @Nullable ResourceDefinition get(String uri) {
		return this.snapshot.byUri().get(uri);
	}

	/**
	 * The static resources, ordered by URI so that listings are stable.
	 * @return the resources
	 */
	public List<ResourceDefinition> getResources() {
		return this.snapshot.resources();
	}

	/**
	 * The resource templates, ordered by template text so that listings are stable.
	 * @return the templates
	 */
	public List<ResourceDefinition> getTemplates() {
		return this.snapshot.templates();
	}

	/**
	 * Whether {@code resources/list} names a resource as an instance of a template whose
	 * instances it lists: such a resource's coming or going changes the list. (A resource
	 * of its own comes and goes by registration, which tells the listeners itself.)
	 * @param uri a concrete URI
	 * @return whether a template that lists its instances serves it
	 */
	public boolean isListedInstance(String uri) {
		ResolvedResource resolved = resolve(uri);
		// Only a template has a lister.
		return resolved != null && resolved.definition().getInstanceLister() != null;
	}

	/**
	 * Resolve a concrete URI.
	 * @param uri the URI
	 * @return the resolved resource, or {@code null} if nothing serves the URI
	 */
	public @Nullable ResolvedResource resolve(String uri) {
		Snapshot current = this.snapshot;
		ResourceDefinition exact = current.byUri().get(uri);
		if (exact != null && !exact.isTemplate()) {
			return new ResolvedResource(exact, uri, Map.of());
		}
		for (ResourceDefinition definition : current.templatesBySpecificity()) {
			Map<String, String> variables = definition.getTemplate().match(uri);
			if (variables != null) {
				return new ResolvedResource(definition, uri, variables);
			}
		}
		return null;
	}

	private record Snapshot(Map<String, ResourceDefinition> byUri, List<ResourceDefinition> resources,
			List<ResourceDefinition> templates, List<ResourceDefinition> templatesBySpecificity) {

		static Snapshot of(Map<String, ResourceDefinition> byUri) {
			Comparator<ResourceDefinition> byText = Comparator.comparing(ResourceDefinition::getUri);
			List<ResourceDefinition> resources = new ArrayList<>();
			List<ResourceDefinition> templates = new ArrayList<>();
			for (ResourceDefinition definition : byUri.values()) {
				(definition.isTemplate() ? templates : resources).add(definition);
			}
			resources.sort(byText);
			templates.sort(byText);
			List<ResourceDefinition> bySpecificity = new ArrayList<>(templates);
			bySpecificity.sort((a, b) -> UriTemplate.SPECIFICITY.compare(a.getTemplate(), b.getTemplate()));
			return new Snapshot(Collections.unmodifiableMap(byUri), List.copyOf(resources), List.copyOf(templates),
					List.copyOf(bySpecificity));
		}

	}

}
