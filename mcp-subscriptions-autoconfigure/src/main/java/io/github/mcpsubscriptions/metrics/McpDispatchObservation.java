package io.github.mcpsubscriptions.metrics;

import java.util.Locale;
import java.util.function.IntSupplier;

import io.github.mcpsubscriptions.notification.DispatchObserver;
import io.github.mcpsubscriptions.notification.ResourceChange;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * An observation around the dispatch of each change ({@code mcp.notification.dispatch}),
 * so tracing shows the fan-out of one change. Its low-cardinality key is the URI scheme;
 * the number of matching subscriptions is a high-cardinality key.
 *
 * @since 0.1.0
 */
public class McpDispatchObservation implements DispatchObserver {

	static final String NAME = "mcp.notification.dispatch";

	private final ObservationRegistry registry;

	public McpDispatchObservation(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void observe(ResourceChange change, IntSupplier dispatch) {
		Observation observation = Observation.createNotStarted(NAME, this.registry)
			.contextualName("mcp dispatch")
			.lowCardinalityKeyValue("mcp.uri.scheme", scheme(change.uri()));
		observation.observe(() -> {
			int matches = dispatch.getAsInt();
			observation.highCardinalityKeyValue("mcp.matches", String.valueOf(matches));
		});
	}

	private static String scheme(String uri) {
		int colon = uri.indexOf(':');
		return (colon > 0 && colon <= 32) ? uri.substring(0, colon).toLowerCase(Locale.ROOT) : "none";
	}

}
