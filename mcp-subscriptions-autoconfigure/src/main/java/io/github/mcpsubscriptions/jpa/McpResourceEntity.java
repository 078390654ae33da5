package io.github.mcpsubscriptions.jpa;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Maps a JPA entity to the MCP resource it is shown as: every insert, update and delete
 * of the entity committed through JPA (Hibernate) notifies the subscribers of the
 * resource that {@link #uri()} names, with the attribute {@code change} set to
 * {@code created}, {@code updated} or {@code deleted}. Nothing is published on rollback,
 * and the application publishes no event of its own for the entity: one committed change
 * is published once.
 * <p>
 * The template's variables are filled from the entity's identifier or from its basic
 * properties, by name: {@code @McpResourceEntity(uri = "shop://orders/{id}")} or
 * {@code @McpResourceEntity(uri = "shop://customers/{customerId}/orders/{number}")}. A
 * variable that names no such property stops the application at start-up.
 * <p>
 * Changes made outside the persistence context (bulk JPQL {@code update} and
 * {@code delete}, native SQL, other writers) are not seen.
 *
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface McpResourceEntity {

	/**
	 * The URI template of the resource an instance of the entity is, for example
	 * {@code shop://orders/{id}}.
	 * @return the URI template
	 */
	String uri();

}
