/**
 * Subscriptions: who subscribed to what, the matching index, and the policies that limit
 * and authorize them.
 */
@NullMarked
package io.github.mcpsubscriptions.subscription;

import org.jspecify.annotations.NullMarked;
