package io.github.mcpsubscriptions.server;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.prompt.Prompt;
import io.github.mcpsubscriptions.prompt.PromptAccessPolicy;
import io.github.mcpsubscriptions.prompt.PromptArgument;
import io.github.mcpsubscriptions.prompt.PromptCompleter;
import io.github.mcpsubscriptions.prompt.PromptContent;
import io.github.mcpsubscriptions.prompt.PromptDefinition;
import io.github.mcpsubscriptions.prompt.PromptMessage;
import io.github.mcpsubscriptions.prompt.PromptRegistry;
import io.github.mcpsubscriptions.prompt.PromptRequest;
import io.github.mcpsubscriptions.prompt.PromptResult;
import io.github.mcpsubscriptions.resource.ResourceContents;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code prompts/*} methods: listing (filtered by the access policy, paged like
 * resources and tools) and getting, with the arguments checked against the prompt's
 * definition first, and the completion of prompt arguments. An unknown prompt (or one the
 * caller may not get), a missing required argument, an unknown or non-string argument are
 * {@code -32602}, as the specification says; so is an {@link IllegalArgumentException} of
 * the prompt itself. Any other failure of a prompt is logged and answered {@code -32603}
 * with a safe message.
 */
class PromptMethods {

	private static final Log logger = LogFactory.getLog(PromptMethods.class);

	private static final int MAX_COMPLETIONS = 100;

	private final PromptRegistry registry;

	private final PromptAccessPolicy accessPolicy;

	private final List<PromptCompleter> completers;

	private final int pageSize;

	PromptMethods(PromptRegistry registry, PromptAccessPolicy accessPolicy, List<PromptCompleter> completers,
			int pageSize) {
		this.registry = registry;
		this.accessPolicy = accessPolicy;
		this.completers = List.copyOf(completers);
		this.pageSize = pageSize;
	}

	/**
	 * Register the methods of the 2025 era: none without prompts, as no prompts
	 * capability is advertised then.
	 */
	void register(Map<String, McpMethodHandler> methods) {
		methods.put("prompts/list", (exchange, params) -> {
			requirePrompts("prompts/list");
			return list(exchange, params);
		});
		methods.put("prompts/get", (exchange, params) -> {
			requirePrompts("prompts/get");
			return get(exchange, params);
		});
	}

	/**
	 * Register the methods of the 2026 era, which advertises the prompts capability
	 * always: without prompts the list is empty and every name unknown.
	 */
	void registerStateless(Map<String, McpMethodHandler> methods) {
		methods.put("prompts/list", this::list);
		methods.put("prompts/get", this::get);
	}

	boolean hasPrompts() {
		return !this.registry.isEmpty();
	}

	private void requirePrompts(String method) {
		if (!hasPrompts()) {
			throw JsonRpcException.methodNotFound(method);
		}
	}

	private Object list(McpExchange exchange, @Nullable ObjectNode params) {
		int offset = ResourceMethods.offset(params);
		List<Prompt> all = this.registry.getPrompts()
			.stream()
			.filter((prompt) -> this.accessPolicy.canGet(exchange.getPrincipal(), prompt))
			.toList();
		List<WirePrompt> page = (offset >= all.size()) ? List.of()
				: all.subList(offset, Math.min(all.size(), offset + this.pageSize))
					.stream()
					.map((prompt) -> toWire(prompt.getDefinition()))
					.toList();
		int next = offset + this.pageSize;
		return new ListPromptsResult(page, (next < all.size()) ? ResourceMethods.cursor(next) : null);
	}

	private Object get(McpExchange exchange, @Nullable ObjectNode params) {
		String name = Params.requireString(params, "name");
		Prompt prompt = visible(name, exchange.getPrincipal());
		if (prompt == null) {
			throw new JsonRpcException(JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: unknown prompt: " + name,
					Map.of("name", name));
		}
		PromptDefinition definition = prompt.getDefinition();
		Map<String, String> arguments = arguments(name, definition, params.get("arguments"));
		PromptResult result;
		try {
			result = prompt.get(new PromptRequest(name, arguments, exchange.getPrincipal(),
					ToolMethods.clientMeta(exchange, params)));
		}
		catch (IllegalArgumentException ex) {
			throw new JsonRpcException(JsonRpcErrorCodes.INVALID_PARAMS,
					"Invalid params: invalid arguments for prompt '" + name + "': " + ex.getMessage(),
					Map.of("name", name));
		}
		catch (Exception ex) {
			logger.error("MCP prompt '" + name + "' failed", ex);
			throw new JsonRpcException(JsonRpcErrorCodes.INTERNAL_ERROR,
					"The prompt '" + name + "' failed. The error was logged on the server.");
		}
		if (result == null) {
			logger.error("MCP prompt '" + name + "' returned no result");
			throw new JsonRpcException(JsonRpcErrorCodes.INTERNAL_ERROR,
					"The prompt '" + name + "' failed. The error was logged on the server.");
		}
		return new GetPromptResult(result.description(),
				result.messages().stream().map(PromptMethods::toWire).toList());
	}

	private @Nullable Prompt visible(String name, @Nullable Principal principal) {
		Prompt prompt = this.registry.get(name);
		return (prompt != null && this.accessPolicy.canGet(principal, prompt)) ? prompt : null;
	}

	private static Map<String, String> arguments(String name, PromptDefinition definition,
			@Nullable JsonNode arguments) {
		Map<String, String> values = new LinkedHashMap<>();
		if (arguments != null && !arguments.isNull()) {
			if (!arguments.isObject()) {
				throw new JsonRpcException(JsonRpcErrorCodes.INVALID_PARAMS,
						"Invalid params: \"arguments\" must be an object of strings", Map.of("name", name));
			}
			for (Map.Entry<String, JsonNode> entry : arguments.properties()) {
				if (definition.argument(entry.getKey()) == null) {
					throw new JsonRpcException(JsonRpcErrorCodes.INVALID_PARAMS,
							"Invalid params: prompt '" + name + "' has no argument '" + entry.getKey() + "'",
							Map.of("name", name, "argument", entry.getKey()));
				}
				if (!entry.getValue().isString()) {
					throw new JsonRpcException(
							JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: argument '" + entry.getKey()
									+ "' of prompt '" + name + "' must be a string",
							Map.of("name", name, "argument", entry.getKey()));
				}
				values.put(entry.getKey(), entry.getValue().stringValue());
			}
		}
		for (PromptArgument argument : definition.arguments()) {
			if (argument.required() && !values.containsKey(argument.name())) {
				throw new JsonRpcException(JsonRpcErrorCodes.INVALID_PARAMS,
						"Invalid params: missing required argument '" + argument.name() + "' of prompt '" + name + "'",
						Map.of("name", name, "argument", argument.name()));
			}
		}
		return values;
	}

	/**
	 * Complete an argument; answers an empty completion for prompts and arguments nobody
	 * knows (or the caller may not get), as clients probe freely.
	 */
	ResourceMethods.Completion complete(String name, String argument, String prefix, Map<String, String> context,
			@Nullable Principal principal) {
		Prompt prompt = visible(name, principal);
		if (prompt == null || prompt.getDefinition().argument(argument) == null) {
			return new ResourceMethods.Completion(List.of(), 0, false);
		}
		List<String> values = null;
		for (PromptCompleter completer : this.completers) {
			values = completer.complete(name, argument, prefix, context);
			if (values != null) {
				break;
			}
		}
		if (values == null) {
			values = prompt.complete(argument, prefix, context);
		}
		List<String> limited = (values.size() > MAX_COMPLETIONS) ? values.subList(0, MAX_COMPLETIONS) : values;
		return new ResourceMethods.Completion(List.copyOf(limited), values.size(), values.size() > MAX_COMPLETIONS);
	}

	private static WirePrompt toWire(PromptDefinition definition) {
		return new WirePrompt(definition.name(), definition.title(), definition.description(),
				definition.arguments()
					.stream()
					.map((argument) -> new WireArgument(argument.name(), argument.title(), argument.description(),
							argument.required()))
					.toList());
	}

	private static WireMessage toWire(PromptMessage message) {
		return new WireMessage(message.role().name().toLowerCase(Locale.ROOT), toWire(message.content()));
	}

	private static Map<String, Object> toWire(PromptContent content) {
		Map<String, Object> wire = new LinkedHashMap<>();
		if (content instanceof PromptContent.Text text) {
			wire.put("type", "text");
			wire.put("text", text.text());
		}
		else if (content instanceof PromptContent.Image image) {
			wire.put("type", "image");
			wire.put("data", image.data());
			wire.put("mimeType", image.mimeType());
		}
		else if (content instanceof PromptContent.Audio audio) {
			wire.put("type", "audio");
			wire.put("data", audio.data());
			wire.put("mimeType", audio.mimeType());
		}
		else if (content instanceof PromptContent.EmbeddedResource embedded) {
			ResourceContents resource = embedded.resource();
			wire.put("type", "resource");
			wire.put("resource", resource);
		}
		else if (content instanceof PromptContent.ResourceLink link) {
			wire.put("type", "resource_link");
			wire.put("uri", link.uri());
			wire.put("name", link.name());
			putIfPresent(wire, "title", link.title());
			putIfPresent(wire, "description", link.description());
			putIfPresent(wire, "mimeType", link.mimeType());
		}
		return wire;
	}

	private static void putIfPresent(Map<String, Object> wire, String key, @Nullable String value) {
		if (value != null) {
			wire.put(key, value);
		}
	}

	record WirePrompt(String name, @Nullable String title, @Nullable String description, List<WireArgument> arguments) {
	}

	record WireArgument(String name, @Nullable String title, @Nullable String description, boolean required) {
	}

	record ListPromptsResult(List<WirePrompt> prompts, @Nullable String nextCursor) {
	}

	record WireMessage(String role, Map<String, Object> content) {
	}

	record GetPromptResult(@Nullable String description, List<WireMessage> messages) {
	}

}
