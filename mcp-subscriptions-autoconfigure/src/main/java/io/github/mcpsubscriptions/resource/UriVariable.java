package io.github.mcpsubscriptions.resource;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds a parameter of an {@link McpResource} method to a URI template variable of
 * another name, or when the code is compiled without {@code -parameters}.
 *
 * @since 0.1.0
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface UriVariable {

	/**
	 * The template variable's name.
	 * @return the name
	 */
	String value();

}
