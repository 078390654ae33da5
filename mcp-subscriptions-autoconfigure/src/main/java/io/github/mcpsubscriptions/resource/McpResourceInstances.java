package io.github.mcpsubscriptions.resource;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method that lists the concrete instances of a resource template, so that
 * {@code resources/list} shows real resources (every product, say) and not only static
 * ones. The template values also serve {@code completion/complete}.
 * <p>
 * The method takes no parameters and returns a collection of: {@link ResourceInstance}s;
 * {@code Map}s of variable values; or, for a template with one variable, the values
 * themselves (such as product ids).
 *
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface McpResourceInstances {

	/**
	 * The URI template, exactly as declared on its {@link McpResource} method.
	 * @return the template
	 */
	String value();

}
