package io.github.mcpsubscriptions.tool;

import org.jspecify.annotations.Nullable;

/**
 * Lets a running tool tell its caller how far it is ({@code notifications/progress}, when
 * the caller asked for it with a progress token) and what it is doing
 * ({@code notifications/message}). Both are best effort: the messages are sent only where
 * the transport can carry them to the caller, and are otherwise dropped.
 *
 * @since 0.1.0
 */
public interface ToolCallProgress {

	/** Drops everything. */
	ToolCallProgress NONE = new ToolCallProgress() {

		@Override
		public void progress(double progress, @Nullable Double total, @Nullable String message) {
		}

		@Override
		public void log(String level, String message) {
		}

	};

	/**
	 * Report progress.
	 * @param progress how far the tool is, growing with each call
	 * @param total the value progress will reach, or {@code null}
	 * @param message what it is doing, or {@code null}
	 */
	void progress(double progress, @Nullable Double total, @Nullable String message);

	/**
	 * Send a log message to the caller.
	 * @param level a syslog level name ({@code info}, {@code warning}, …)
	 * @param message the message
	 */
	void log(String level, String message);

}
