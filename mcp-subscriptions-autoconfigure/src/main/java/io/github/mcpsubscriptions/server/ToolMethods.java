package io.github.mcpsubscriptions.server;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcCodec;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcErrorCodes;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcException;
import io.github.mcpsubscriptions.jsonrpc.JsonRpcNotification;
import io.github.mcpsubscriptions.tool.InputValidator;
import io.github.mcpsubscriptions.tool.RegisteredTool;
import io.github.mcpsubscriptions.tool.ToolAccessPolicy;
import io.github.mcpsubscriptions.tool.ToolCall;
import io.github.mcpsubscriptions.tool.ToolCallObserver;
import io.github.mcpsubscriptions.tool.ToolCallObserver.Outcome;
import io.github.mcpsubscriptions.tool.ToolCallProgress;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import io.github.mcpsubscriptions.tool.ToolResult;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code tools/*} methods: listing (filtered by the access policy, paged like
 * resources) and calling, with the arguments validated against the tool's input schema
 * first. What goes wrong inside a call (bad arguments, the tool's own failure) is a tool
 * result with {@code isError: true} the model can read; only an unknown tool (or one the
 * caller may not call) is a protocol error, {@code -32602}.
 */
class ToolMethods {

	private static final Log logger = LogFactory.getLog(ToolMethods.class);

	private static final String CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";

	private static final String LOG_LEVEL_META = "io.modelcontextprotocol/logLevel";

	private static final String PROTOCOL_META_PREFIX = "io.modelcontextprotocol/";

	private static final List<String> LOG_LEVELS = List.of("debug", "info", "notice", "warning", "error", "critical",
			"alert", "emergency");

	private final ToolRegistry registry;

	private final ToolAccessPolicy accessPolicy;

	private final JsonRpcCodec codec;

	private final int pageSize;

	private volatile ToolCallObserver observer = ToolCallObserver.NONE;

	ToolMethods(ToolRegistry registry, ToolAccessPolicy accessPolicy, JsonRpcCodec codec, int pageSize) {
		this.registry = registry;
		this.accessPolicy = accessPolicy;
		this.codec = codec;
		this.pageSize = pageSize;
	}

	void register(Map<String, McpMethodHandler> methods) {
		methods.put("tools/list", this::list);
		methods.put("tools/call", this::call);
	}

	void setObserver(ToolCallObserver observer) {
		this.observer = observer;
	}

	boolean isRegistered(String name) {
		return this.registry.get(name) != null;
	}

	/**
	 * Whether a {@code tools/call} result (as handled, or as sent in the 2026 era)
	 * reports a tool error.
	 */
	static boolean isToolError(@Nullable Object result) {
		if (result instanceof CallToolResult call) {
			return Boolean.TRUE.equals(call.isError());
		}
		JsonNode error = (result instanceof ObjectNode node) ? node.get("isError") : null;
		return error != null && error.isBoolean() && error.booleanValue();
	}

	boolean hasTools() {
		return !this.registry.isEmpty();
	}

	private Object list(McpExchange exchange, @Nullable ObjectNode params) {
		if (!hasTools()) {
			// No tools, no tools capability, so no tools/* methods either (both eras).
			throw JsonRpcException.methodNotFound("tools/list");
		}
		int offset = ResourceMethods.offset(params);
		List<RegisteredTool> all = this.registry.getTools()
			.stream()
			.filter((tool) -> this.accessPolicy.canCall(exchange.getPrincipal(), tool.tool()))
			.toList();
		List<Tool> page = (offset >= all.size()) ? List.of()
				: all.subList(offset, Math.min(all.size(), offset + this.pageSize))
					.stream()
					.map(ToolMethods::toWire)
					.toList();
		int next = offset + this.pageSize;
		return new ListToolsResult(page, (next < all.size()) ? ResourceMethods.cursor(next) : null);
	}

	private Object call(McpExchange exchange, @Nullable ObjectNode params) {
		if (!hasTools()) {
			throw JsonRpcException.methodNotFound("tools/call");
		}
		String name = Params.requireString(params, "name");
		RegisteredTool tool = this.registry.get(name);
		if (tool == null || !this.accessPolicy.canCall(exchange.getPrincipal(), tool.tool())) {
			throw new JsonRpcException(JsonRpcErrorCodes.INVALID_PARAMS, "Unknown tool: " + name, Map.of("name", name));
		}
		List<String> missing = tool.tool()
			.getRequiredClientCapabilities()
			.stream()
			.filter((capability) -> !clientCapabilities(exchange, params).has(capability))
			.sorted()
			.toList();
		if (!missing.isEmpty()) {
			Map<String, Object> required = new LinkedHashMap<>();
			missing.forEach((capability) -> required.put(capability, Map.of()));
			if (exchange.isStateless()) {
				throw new JsonRpcException(JsonRpcErrorCodes.MISSING_CLIENT_CAPABILITY,
						"Missing required client capability: " + String.join(", ", missing),
						Map.of("requiredCapabilities", required));
			}
			// No such error in the 2025 era: the model is told in a tool error.
			return toWire(ToolResult.error("The tool '" + name + "' needs the client capabilities " + missing
					+ ", which this client did not declare."), null);
		}
		JsonNode arguments = params.get("arguments");
		if (arguments == null || arguments.isNull()) {
			arguments = this.codec.createObjectNode();
		}
		long started = System.nanoTime();
		if (!arguments.isObject()) {
			return refused(name, started, List.of("$: the arguments must be a JSON object"));
		}
		List<String> problems = InputValidator.validate(tool.inputSchema(), arguments);
		if (!problems.isEmpty()) {
			return refused(name, started, problems);
		}
		ToolResult result;
		try {
			result = tool.tool()
				.call(new ToolCall(this.codec.writeAsString(arguments), exchange.getPrincipal(),
						progress(exchange, params), clientMeta(exchange, params)));
		}
		catch (Exception ex) {
			logger.error("MCP tool '" + name + "' failed", ex);
			observe(name, Outcome.EXCEPTION, started);
			return toWire(ToolResult.error("The tool '" + name + "' failed. The error was logged on the server."),
					null);
		}
		observe(name, result.error() ? Outcome.TOOL_ERROR : Outcome.SUCCESS, started);
		return toWire(result, tool.outputSchema());
	}

	/**
	 * The request's {@code _meta} as text, for tools and prompts that read it (Spring
	 * AI's {@code @McpMeta}, {@code @McpProgressToken}). In the 2026 era it also carries
	 * the protocol's own keys (what {@code initialize} said in the 2025 era): they are
	 * left out, so that a tool sees the same {@code _meta} from a client in either era.
	 */
	static @Nullable String clientMeta(McpExchange exchange, ObjectNode params) {
		JsonNode meta = params.get("_meta");
		if (meta == null || !meta.isObject()) {
			return null;
		}
		ObjectNode own = params.objectNode();
		for (Map.Entry<String, JsonNode> entry : meta.properties()) {
			if (!exchange.isStateless() || !entry.getKey().startsWith(PROTOCOL_META_PREFIX)) {
				own.set(entry.getKey(), entry.getValue());
			}
		}
		// A JsonNode writes itself as JSON.
		return own.isEmpty() ? null : own.toString();
	}

	private static JsonNode clientCapabilities(McpExchange exchange, @Nullable ObjectNode params) {
		JsonNode capabilities = null;
		if (exchange.isStateless()) {
			JsonNode meta = (params != null) ? params.get("_meta") : null;
			capabilities = (meta != null) ? meta.get(CLIENT_CAPABILITIES_META) : null;
		}
		else if (exchange.getSession() != null) {
			capabilities = exchange.getSession().getClientCapabilities();
		}
		return (capabilities != null && capabilities.isObject()) ? capabilities : JsonNodeFactory.instance.objectNode();
	}

	/**
	 * Progress goes to callers that sent a progress token; log messages to 2025-era
	 * sessions that set a level with {@code logging/setLevel} and to 2026-era requests
	 * that name one in {@code _meta}, at that level or above.
	 */
	private ToolCallProgress progress(McpExchange exchange, @Nullable ObjectNode params) {
		JsonNode meta = (params != null) ? params.get("_meta") : null;
		JsonNode token = (meta != null) ? meta.get("progressToken") : null;
		JsonNode progressToken = (token != null && (token.isString() || token.isIntegralNumber())) ? token : null;
		String logLevel = null;
		if (exchange.isStateless()) {
			JsonNode level = (meta != null) ? meta.get(LOG_LEVEL_META) : null;
			logLevel = (level != null && level.isString()) ? level.stringValue() : null;
		}
		else if (exchange.getSession() != null) {
			logLevel = exchange.getSession().getLogLevel();
		}
		int minimum = (logLevel != null) ? LOG_LEVELS.indexOf(logLevel) : -1;
		Consumer<JsonRpcNotification> sink = exchange.getNotificationSink();
		return new ToolCallProgress() {

			@Override
			public void progress(double progress, @Nullable Double total, @Nullable String message) {
				if (progressToken == null) {
					return;
				}
				Map<String, Object> values = new LinkedHashMap<>();
				values.put("progressToken", progressToken);
				values.put("progress", progress);
				if (total != null) {
					values.put("total", total);
				}
				if (message != null) {
					values.put("message", message);
				}
				sink.accept(new JsonRpcNotification("notifications/progress", values));
			}

			@Override
			public void log(String level, String message) {
				int index = LOG_LEVELS.indexOf(level);
				if (minimum >= 0 && index >= minimum) {
					sink.accept(new JsonRpcNotification("notifications/message",
							Map.of("level", level, "logger", "tool", "data", message)));
				}
			}

		};
	}

	private CallToolResult refused(String name, long started, List<String> problems) {
		observe(name, Outcome.INVALID_ARGUMENTS, started);
		return toWire(ToolResult.error("Invalid arguments for tool '" + name + "': " + String.join("; ", problems)),
				null);
	}

	private void observe(String name, Outcome outcome, long started) {
		try {
			this.observer.called(name, outcome, Duration.ofNanos(System.nanoTime() - started));
		}
		catch (RuntimeException ex) {
			logger.warn("Tool call observer failed", ex);
		}
	}

	private CallToolResult toWire(ToolResult result, @Nullable JsonNode outputSchema) {
		JsonNode structured = null;
		if (outputSchema != null && !result.error()) {
			String json = result.structuredContent();
			if (json == null && result.content().size() == 1 && "text".equals(result.content().get(0).get("type"))) {
				// The text is the structured result when the tool declares one: clients
				// read either.
				json = String.valueOf(result.content().get(0).get("text"));
			}
			structured = (json != null) ? parseObject(json) : null;
		}
		return new CallToolResult(result.content(), structured, result.error() ? Boolean.TRUE : null);
	}

	private @Nullable JsonNode parseObject(String json) {
		try {
			JsonNode node = this.codec.parse(json.getBytes(StandardCharsets.UTF_8));
			return (node != null && node.isObject()) ? node : null;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static Tool toWire(RegisteredTool tool) {
		return new Tool(tool.name(), tool.definition().title(), tool.definition().description(), tool.inputSchema(),
				tool.outputSchema(), tool.annotations(), tool.meta());
	}

	record Tool(String name, @Nullable String title, @Nullable String description, JsonNode inputSchema,
			@Nullable JsonNode outputSchema, @Nullable JsonNode annotations,
			@JsonProperty("_meta") @Nullable JsonNode meta) {
	}

	record ListToolsResult(List<Tool> tools, @Nullable String nextCursor) {
	}

	record CallToolResult(List<Map<String, Object>> content, @Nullable JsonNode structuredContent,
			@Nullable Boolean isError) {
	}

}
