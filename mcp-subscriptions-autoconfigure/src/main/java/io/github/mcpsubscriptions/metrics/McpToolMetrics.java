package io.github.mcpsubscriptions.metrics;

import java.time.Duration;
import java.util.Locale;

import io.github.mcpsubscriptions.tool.ToolCallObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * Tool calls as meters: {@code mcp.tools.calls} (a counter, tags {@code tool} and
 * {@code outcome}: success, tool_error, invalid_arguments, exception) and
 * {@code mcp.tools.duration} (a timer of how long tools ran, tag {@code tool}). The tool
 * tag only ever holds the name of a registered tool (an unknown name never gets here), so
 * its values are bounded; the arguments are never a tag.
 *
 * @since 0.1.0
 */
public class McpToolMetrics implements ToolCallObserver, MeterBinder {

	private volatile @Nullable MeterRegistry registry;

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void called(String tool, Outcome outcome, Duration duration) {
		MeterRegistry registry = this.registry;
		if (registry == null) {
			return;
		}
		Counter.builder("mcp.tools.calls")
			.description("Tool calls, by tool and outcome")
			.tag("tool", tool)
			.tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
			.register(registry)
			.increment();
		if (outcome != Outcome.INVALID_ARGUMENTS) {
			Timer.builder("mcp.tools.duration")
				.description("How long tools ran")
				.tag("tool", tool)
				.register(registry)
				.record(duration);
		}
	}

}
