package io.github.mcpsubscriptions.events;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@link AlertRaised}.
 *
 * @param level only alerts of this level; all when {@code null}
 */
record AlertFilter(@Nullable String level) {
}
