/**
 * Observability: Micrometer meter binders, the Actuator endpoint and the health
 * contributor.
 */
@NullMarked
package io.github.mcpsubscriptions.metrics;

import org.jspecify.annotations.NullMarked;
