package io.github.mcpsubscriptions.resource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Turns what a resource reader returned into the contents sent to the client, and lists
 * the instances of resource templates.
 * <p>
 * {@code String} is text ({@code text/plain} unless declared otherwise), {@code byte[]} a
 * blob ({@code application/octet-stream}), {@link ResourceContents} and collections of
 * them are sent as they are, and any other object is written as JSON
 * ({@code application/json}) with the application's JSON mapper. {@code null} and an
 * empty {@code Optional} mean the resource does not exist.
 *
 * @since 0.1.0
 */
public class ResourceContentMapper {

	private static final String TEXT = "text/plain";

	private static final String BINARY = "application/octet-stream";

	private static final String JSON = "application/json";

	private final Function<Object, String> jsonWriter;

	/**
	 * Create a mapper.
	 * @param jsonWriter writes objects as JSON text
	 */
	public ResourceContentMapper(Function<Object, String> jsonWriter) {
		this.jsonWriter = jsonWriter;
	}

	/**
	 * Map a reader's return value.
	 * @param resource what was read
	 * @param value the value
	 * @return the contents, or {@code null} if the value means "not found"
	 */
	public @Nullable List<ResourceContents> toContents(ResolvedResource resource, @Nullable Object value) {
		Object unwrapped = (value instanceof Optional<?> optional) ? optional.orElse(null) : value;
		if (unwrapped == null) {
			return null;
		}
		String declared = resource.definition().getMimeType();
		if (unwrapped instanceof ResourceContents contents) {
			return List.of(contents);
		}
		if (unwrapped instanceof Collection<?> collection && !collection.isEmpty()
				&& collection.stream().allMatch(ResourceContents.class::isInstance)) {
			List<ResourceContents> contents = new ArrayList<>(collection.size());
			collection.forEach((element) -> contents.add((ResourceContents) element));
			return contents;
		}
		if (unwrapped instanceof CharSequence text) {
			return List.of(ResourceContents.text(resource.uri(), orDefault(declared, TEXT), text.toString()));
		}
		if (unwrapped instanceof byte[] bytes) {
			return List.of(ResourceContents.blob(resource.uri(), orDefault(declared, BINARY), bytes));
		}
		return List
			.of(ResourceContents.text(resource.uri(), orDefault(declared, JSON), this.jsonWriter.apply(unwrapped)));
	}

	/**
	 * The MIME type a method with this return type produces when none is declared.
	 * @param returnType the method's return type
	 * @return the MIME type, or {@code null} if it depends on the value
	 */
	static @Nullable String defaultMimeType(Class<?> returnType) {
		if (CharSequence.class.isAssignableFrom(returnType)) {
			return TEXT;
		}
		if (returnType == byte[].class) {
			return BINARY;
		}
		if (ResourceContents.class.isAssignableFrom(returnType) || Collection.class.isAssignableFrom(returnType)
				|| returnType == Optional.class || returnType == Object.class) {
			return null;
		}
		return JSON;
	}

	/**
	 * List the static resources and the instances of templates that have a lister.
	 * @param registry the registry
	 * @return the resources
	 * @throws Exception if a lister fails
	 */
	public static List<ResourceDescriptor> listResources(ResourceRegistry registry) throws Exception {
		List<ResourceDescriptor> resources = new ArrayList<>();
		for (ResourceDefinition definition : registry.getResources()) {
			resources.add(new ResourceDescriptor(definition.getUri(), definition.getName(), definition.getTitle(),
					definition.getDescription(), definition.getMimeType(), definition.getAnnotations(),
					definition.getSize()));
		}
		for (ResourceDefinition template : registry.getTemplates()) {
			for (ResourceInstance instance : listInstances(template)) {
				resources.add(describe(template, instance));
			}
		}
		return resources;
	}

	/**
	 * The instances of a template, as its lister gives them.
	 * @param template the template
	 * @return the instances; empty if it has no lister
	 * @throws Exception if the lister fails
	 */
	public static List<ResourceInstance> listInstances(ResourceDefinition template) throws Exception {
		ResourceInstanceLister lister = template.getInstanceLister();
		if (lister == null) {
			return List.of();
		}
		List<String> variables = template.getTemplate().getVariableNames();
		List<ResourceInstance> instances = new ArrayList<>();
		for (Object element : lister.list()) {
			if (element instanceof ResourceInstance instance) {
				instances.add(instance);
			}
			else if (element instanceof Map<?, ?> map) {
				Map<String, Object> values = new LinkedHashMap<>();
				map.forEach((key, value) -> values.put(String.valueOf(key), value));
				instances.add(new ResourceInstance(values));
			}
			else if (variables.size() == 1) {
				instances.add(new ResourceInstance(Map.of(variables.get(0), element)));
			}
			else {
				throw new IllegalStateException(
						"The instance lister of " + template + " returned a " + element.getClass().getName()
								+ "; a template with several variables needs Maps or ResourceInstances");
			}
		}
		return instances;
	}

	private static ResourceDescriptor describe(ResourceDefinition template, ResourceInstance instance) {
		String uri = template.getTemplate().expand(instance.variables());
		String name = (instance.name() != null) ? instance.name() : template.getName() + " "
				+ String.join(",", instance.variables().values().stream().map(String::valueOf).toList());
		String description = (instance.description() != null) ? instance.description() : template.getDescription();
		return new ResourceDescriptor(uri, name, instance.title(), description, template.getMimeType(),
				template.getAnnotations(), null);
	}

	private static String orDefault(@Nullable String declared, String fallback) {
		return (declared != null) ? declared : fallback;
	}

}
