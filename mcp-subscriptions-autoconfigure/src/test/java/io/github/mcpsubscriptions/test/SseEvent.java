package io.github.mcpsubscriptions.test;

import org.jspecify.annotations.Nullable;

/**
 * One server-sent event as a client sees it: a comment-only event has {@code data}
 * {@code null}.
 *
 * @param id the {@code id:} field
 * @param event the {@code event:} field
 * @param data the {@code data:} lines joined with newlines
 * @param retry the {@code retry:} field
 * @param comment the last comment line
 */
public record SseEvent(@Nullable String id, @Nullable String event, @Nullable String data, @Nullable String retry,
		@Nullable String comment) {

	public boolean isComment() {
		return this.data == null && this.id == null && this.comment != null;
	}

}
