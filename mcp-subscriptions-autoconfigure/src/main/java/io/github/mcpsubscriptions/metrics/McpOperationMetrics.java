package io.github.mcpsubscriptions.metrics;

import java.time.Duration;

import io.github.mcpsubscriptions.server.McpRequestObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * {@code mcp.server.operation.duration}, as OpenTelemetry's semantic conventions for MCP
 * name it: a timer of every answered JSON-RPC request, tagged {@code mcp.method.name},
 * {@code mcp.protocol.version}, {@code error.type}, {@code rpc.response.status_code},
 * {@code gen_ai.tool.name}, {@code gen_ai.operation.name}, {@code network.transport} and
 * {@code network.protocol.name}. Every tag's values are bounded: a method the server does
 * not have is {@value #OTHER}, a tool only ever a registered one, and the resource URI is
 * left out (the conventions make it opt-in). Micrometer needs every timer of one name to
 * carry the same tags, so an attribute the conventions leave unset is {@value #NONE}.
 *
 * @since 0.1.0
 */
public class McpOperationMetrics implements McpRequestObserver, MeterBinder {

	/** The name of the timer. */
	public static final String OPERATION_DURATION = "mcp.server.operation.duration";

	/** The value of an attribute the conventions leave unset. */
	public static final String NONE = "none";

	/** The method name of a request for a method the server does not have. */
	public static final String OTHER = "_OTHER";

	static final Duration[] BOUNDARIES = { Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(50),
			Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(1),
			Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
			Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(300) };

	private volatile @Nullable MeterRegistry registry;

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void answered(Answered answered) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		String errorType = NONE;
		if (answered.exception() != null) {
			errorType = answered.exception().getName();
		}
		else if (answered.errorCode() != null) {
			errorType = Integer.toString(answered.errorCode());
		}
		else if (answered.toolError()) {
			errorType = "tool_error";
		}
		Timer.builder(OPERATION_DURATION)
			.description("MCP request duration as observed on the server, from receipt to answer")
			.tag("mcp.method.name", (answered.method() != null) ? answered.method() : OTHER)
			.tag("mcp.protocol.version", (answered.protocolVersion() != null) ? answered.protocolVersion() : NONE)
			.tag("error.type", errorType)
			.tag("rpc.response.status_code",
					(answered.errorCode() != null) ? Integer.toString(answered.errorCode()) : NONE)
			.tag("gen_ai.tool.name", (answered.toolName() != null) ? answered.toolName() : NONE)
			.tag("gen_ai.operation.name", (answered.toolName() != null) ? "execute_tool" : NONE)
			.tag("network.transport", "tcp")
			.tag("network.protocol.name", "http")
			.serviceLevelObjectives(BOUNDARIES)
			.register(registry)
			.record(answered.duration());
	}

}
