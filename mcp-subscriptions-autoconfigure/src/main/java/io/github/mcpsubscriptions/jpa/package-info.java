/**
 * Changes from JPA: entities annotated with {@link McpResourceEntity} publish their own
 * committed inserts, updates and deletes as changes of the resource their URI template
 * names, through Hibernate's post-commit event listeners.
 */
@NullMarked
package io.github.mcpsubscriptions.jpa;

import org.jspecify.annotations.NullMarked;
