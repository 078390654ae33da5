/**
 * The threads of the starter, made one way: named, daemon, and virtual only for delivery
 * where {@code spring.threads.virtual.enabled} is on.
 */
@NullMarked
package io.github.mcpsubscriptions.thread;

import org.jspecify.annotations.NullMarked;
