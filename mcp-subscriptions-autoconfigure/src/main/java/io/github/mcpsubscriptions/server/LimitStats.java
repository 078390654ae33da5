package io.github.mcpsubscriptions.server;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of requests refused by a capacity limit, by the property that sets the limit
 * (the name a refusal carries in {@code data.limit}), for the metrics. Never by principal
 * or client: the set of limits is fixed, the set of callers is not.
 *
 * @since 0.1.0
 */
public final class LimitStats {

	/** Every limit whose refusals are counted, by property. */
	public static final List<String> LIMITS = List.of("mcp.sessions.max", "mcp.sessions.max-per-principal",
			"mcp.subscriptions.max-per-session", "mcp.subscriptions.max-total", "mcp.subscriptions.max-per-principal",
			"mcp.listen.max-streams", "mcp.listen.max-streams-per-principal");

	private final Map<String, LongAdder> refusals = new ConcurrentHashMap<>();

	LimitStats() {
		for (String limit : LIMITS) {
			this.refusals.put(limit, new LongAdder());
		}
	}

	void refused(String limit) {
		LongAdder count = this.refusals.get(limit);
		if (count != null) {
			count.increment();
		}
	}

	/**
	 * How many requests a limit refused.
	 * @param limit the property that sets the limit, one of {@link #LIMITS}
	 * @return the count
	 */
	public long getRefused(String limit) {
		LongAdder count = this.refusals.get(limit);
		return (count != null) ? count.sum() : 0;
	}

}
