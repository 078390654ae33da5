/**
 * Ahead-of-time processing: the runtime hints a native image needs for what the starter
 * does reflectively.
 */
@NullMarked
package io.github.mcpsubscriptions.aot;

import org.jspecify.annotations.NullMarked;
