package io.github.mcpsubscriptions.tool;

import java.time.Duration;

/**
 * Told of every tool call that reached a tool (or was refused for its arguments), for
 * metrics. Never given the arguments.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ToolCallObserver {

	/** Observes nothing. */
	ToolCallObserver NONE = (tool, outcome, duration) -> {
	};

	/**
	 * A call ended.
	 * @param tool the tool's name
	 * @param outcome how it ended
	 * @param duration how long the tool ran
	 */
	void called(String tool, Outcome outcome, Duration duration);

	/**
	 * How a tool call ended.
	 */
	enum Outcome {

		/** The tool answered a result that is not an error. */
		SUCCESS,

		/** The tool answered an error result. */
		TOOL_ERROR,

		/** The arguments did not match the input schema: the tool did not run. */
		INVALID_ARGUMENTS,

		/** The tool threw. */
		EXCEPTION

	}

}
