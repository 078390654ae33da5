package io.github.mcpsubscriptions.server;

import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.resource.ResolvedResource;
import io.github.mcpsubscriptions.resource.ResourceAnnotations;
import io.github.mcpsubscriptions.resource.ResourceCompleter;
import io.github.mcpsubscriptions.resource.ResourceContentMapper;
import io.github.mcpsubscriptions.resource.ResourceContents;
import io.github.mcpsubscriptions.resource.ResourceDefinition;
import io.github.mcpsubscriptions.resource.ResourceDescriptor;
import io.github.mcpsubscriptions.resource.ResourceInstance;
import io.github.mcpsubscriptions.resource.ResourceRegistry;
import io.github.mcpsubscriptions.subscription.ResourceAccessPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code resources/*} methods and resource completion.
 */
class ResourceMethods {

	private static final Log logger = LogFactory.getLog(ResourceMethods.class);

	static final int MAX_URI_LENGTH = 8192;

	private static final int MAX_COMPLETIONS = 100;

	private static final String CURSOR_PREFIX = "offset:";

	private final ResourceRegistry registry;

	private final ResourceContentMapper contentMapper;

	private final List<ResourceCompleter> completers;

	private final int pageSize;

	private final ResourceAccessPolicy accessPolicy;

	ResourceMethods(ResourceRegistry registry, ResourceContentMapper contentMapper, List<ResourceCompleter> completers,
			int pageSize, ResourceAccessPolicy accessPolicy) {
		if (pageSize < 1) {
			throw new IllegalArgumentException("The page size must be at least 1, was " + pageSize);
		}
		this.registry = registry;
		this.contentMapper = contentMapper;
		this.completers = List.copyOf(completers);
		this.pageSize = pageSize;
		this.accessPolicy = accessPolicy;
	}

	void register(Map<String, McpMethodHandler> methods) {
		methods.put("resources/list", this::list);
		methods.put("resources/templates/list", this::listTemplates);
		methods.put("resources/read", this::read);
	}

	private Object list(McpExchange exchange, @Nullable ObjectNode params) {
		int offset = offset(params);
		List<ResourceDescriptor> all;
		try {
			all = ResourceContentMapper.listResources(this.registry);
		}
		catch (Exception ex) {
			throw internalError("listing resources", ex);
		}
		// Filtered before paging, so that offsets count only what this caller sees.
		Principal principal = exchange.getPrincipal();
		all = all.stream().filter((resource) -> this.accessPolicy.canRead(principal, resource.uri())).toList();
		List<ResourceDescriptor> page = page(all, offset);
		return new ListResourcesResult(page.stream().map(ResourceMethods::toWire).toList(),
				nextCursor(all.size(), offset));
	}

	private Object listTemplates(McpExchange exchange, @Nullable ObjectNode params) {
		int offset = offset(params);
		// Filtered before paging, as resources are: offsets count only what this caller
		// sees.
		Principal principal = exchange.getPrincipal();
		List<ResourceDefinition> all = this.registry.getTemplates()
			.stream()
			.filter((template) -> this.accessPolicy.canListTemplate(principal, template.getUri()))
			.toList();
		List<ResourceTemplate> page = page(all, offset).stream()
			.map((definition) -> new ResourceTemplate(definition.getUri(), definition.getName(), definition.getTitle(),
					definition.getDescription(), definition.getMimeType(), definition.getAnnotations()))
			.toList();
		return new ListResourceTemplatesResult(page, nextCursor(all.size(), offset));
	}

	private Object read(McpExchange exchange, @Nullable ObjectNode params) {
		String uri = requireUri(params);
		ResolvedResource resource = this.registry.resolve(uri);
		if (resource == null || !this.accessPolicy.canRead(exchange.getPrincipal(), uri)) {
			throw notFound(uri, exchange);
		}
		Object value;
		try {
			value = resource.definition()
				.getReader()
				.read(resource.request((params != null) ? ToolMethods.clientMeta(exchange, params) : null));
		}
		catch (JsonRpcException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw internalError("reading " + resource.definition(), ex);
		}
		List<ResourceContents> contents = this.contentMapper.toContents(resource, value);
		if (contents == null) {
			throw notFound(uri, exchange);
		}
		exchange.setCacheHints(resource.definition().getCacheHints());
		return new ReadResourceResult(contents);
	}

	/**
	 * Complete a template variable; answers an empty completion for templates nobody
	 * knows, as clients probe freely.
	 */
	Completion complete(String uriTemplate, String variable, String prefix, Map<String, String> context,
			@Nullable Principal principal) {
		List<String> values = null;
		for (ResourceCompleter completer : this.completers) {
			values = completer.complete(uriTemplate, variable, prefix, context);
			if (values != null) {
				values = readable(uriTemplate, variable, values, context, principal);
				break;
			}
		}
		if (values == null) {
			values = fromInstances(uriTemplate, variable, prefix, context, principal);
		}
		List<String> limited = (values.size() > MAX_COMPLETIONS) ? values.subList(0, MAX_COMPLETIONS) : values;
		return new Completion(List.copyOf(limited), values.size(), values.size() > MAX_COMPLETIONS);
	}

	/**
	 * A completer's values that make a URI the caller may read. With the context, a value
	 * that fills every variable the URI needs makes a concrete URI, judged as a read; one
	 * that leaves a variable open is offered if the caller may see the template at all.
	 */
	private List<String> readable(String uriTemplate, String variable, List<String> values, Map<String, String> context,
			@Nullable Principal principal) {
		ResourceDefinition template = this.registry.get(uriTemplate);
		if (template == null || !template.isTemplate()
				|| !this.accessPolicy.canListTemplate(principal, template.getUri())) {
			// Nothing the caller may read is made from these values.
			return List.of();
		}
		Map<String, String> variables = new LinkedHashMap<>(context);
		List<String> readable = new ArrayList<>(values.size());
		for (String value : values) {
			variables.put(variable, value);
			String uri;
			try {
				uri = template.getTemplate().expand(variables);
			}
			catch (IllegalArgumentException ex) {
				readable.add(value);
				continue;
			}
			if (this.accessPolicy.canRead(principal, uri)) {
				readable.add(value);
			}
		}
		return readable;
	}

	private List<String> fromInstances(String uriTemplate, String variable, String prefix, Map<String, String> context,
			@Nullable Principal principal) {
		ResourceDefinition template = this.registry.get(uriTemplate);
		if (template == null || !template.isTemplate()) {
			return List.of();
		}
		List<ResourceInstance> instances;
		try {
			instances = ResourceContentMapper.listInstances(template);
		}
		catch (Exception ex) {
			throw internalError("listing instances of " + template, ex);
		}
		String lowerPrefix = prefix.toLowerCase(Locale.ROOT);
		Set<String> values = new LinkedHashSet<>();
		for (ResourceInstance instance : instances) {
			Object value = instance.variables().get(variable);
			if (value != null && matchesContext(instance, context)
					&& String.valueOf(value).toLowerCase(Locale.ROOT).startsWith(lowerPrefix)
					&& this.accessPolicy.canRead(principal, template.getTemplate().expand(instance.variables()))) {
				values.add(String.valueOf(value));
			}
		}
		return new ArrayList<>(values);
	}

	private static boolean matchesContext(ResourceInstance instance, Map<String, String> context) {
		for (Map.Entry<String, String> entry : context.entrySet()) {
			Object value = instance.variables().get(entry.getKey());
			if (value != null && !String.valueOf(value).equals(entry.getValue())) {
				return false;
			}
		}
		return true;
	}

	static String requireUri(@Nullable ObjectNode params) {
		String uri = Params.requireString(params, "uri");
		if (uri.isEmpty() || uri.length() > MAX_URI_LENGTH) {
			throw JsonRpcException
				.invalidParams("Invalid params: \"uri\" must be between 1 and " + MAX_URI_LENGTH + " characters");
		}
		return uri;
	}

	/**
	 * Resource not found: {@code -32002} in the 2025 era, {@code -32602} from 2026-07-28
	 * on.
	 */
	static JsonRpcException notFound(String uri, McpExchange exchange) {
		return new JsonRpcException(
				exchange.isStateless() ? JsonRpcErrorCodes.INVALID_PARAMS : JsonRpcErrorCodes.RESOURCE_NOT_FOUND,
				"Resource not found", Map.of("uri", uri));
	}

	private static JsonRpcException internalError(String what, Exception ex) {
		logger.error("MCP resource failure while " + what, ex);
		return new JsonRpcException(JsonRpcErrorCodes.INTERNAL_ERROR,
				"Internal error while " + what.split(" ")[0] + " the resource");
	}

	static int offset(@Nullable ObjectNode params) {
		String cursor = Params.optionalString(params, "cursor");
		if (cursor == null) {
			return 0;
		}
		try {
			String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
			if (decoded.startsWith(CURSOR_PREFIX)) {
				int offset = Integer.parseInt(decoded.substring(CURSOR_PREFIX.length()));
				if (offset > 0) {
					return offset;
				}
			}
		}
		catch (IllegalArgumentException ex) {
			// Reported below: not a cursor this server issued.
		}
		throw JsonRpcException.invalidParams("Invalid params: \"cursor\" is not a cursor this server issued");
	}

	private <T> List<T> page(List<T> all, int offset) {
		if (offset >= all.size()) {
			return List.of();
		}
		return all.subList(offset, Math.min(all.size(), offset + this.pageSize));
	}

	private @Nullable String nextCursor(int size, int offset) {
		int next = offset + this.pageSize;
		return (next < size) ? cursor(next) : null;
	}

	static String cursor(int offset) {
		return Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString((CURSOR_PREFIX + offset).getBytes(StandardCharsets.UTF_8));
	}

	private static Resource toWire(ResourceDescriptor descriptor) {
		return new Resource(descriptor.uri(), descriptor.name(), descriptor.title(), descriptor.description(),
				descriptor.mimeType(), descriptor.annotations(), descriptor.size());
	}

	static Map<String, String> contextArguments(@Nullable JsonNode context) {
		Map<String, String> values = new LinkedHashMap<>();
		JsonNode arguments = (context != null) ? context.get("arguments") : null;
		if (arguments != null && arguments.isObject()) {
			arguments.properties().forEach((entry) -> {
				if (entry.getValue().isString()) {
					values.put(entry.getKey(), entry.getValue().stringValue());
				}
			});
		}
		return values;
	}

	record Resource(String uri, String name, @Nullable String title, @Nullable String description,
			@Nullable String mimeType, @Nullable ResourceAnnotations annotations, @Nullable Long size) {
	}

	record ResourceTemplate(String uriTemplate, String name, @Nullable String title, @Nullable String description,
			@Nullable String mimeType, @Nullable ResourceAnnotations annotations) {
	}

	record ListResourcesResult(List<Resource> resources, @Nullable String nextCursor) {
	}

	record ListResourceTemplatesResult(List<ResourceTemplate> resourceTemplates, @Nullable String nextCursor) {
	}

	record ReadResourceResult(List<ResourceContents> contents) {
	}

	record Completion(List<String> values, int total, boolean hasMore) {
	}

}
