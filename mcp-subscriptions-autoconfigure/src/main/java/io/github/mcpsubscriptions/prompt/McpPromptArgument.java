package io.github.mcpsubscriptions.prompt;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes a parameter of an {@link McpPrompt} method as an argument of the prompt.
 *
 * @since 0.1.0
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface McpPromptArgument {

	/**
	 * The argument's name; defaults to the parameter name.
	 * @return the name
	 */
	String name() default "";

	/**
	 * A human-readable title.
	 * @return the title
	 */
	String title() default "";

	/**
	 * What the argument is, for users filling it in.
	 * @return the description
	 */
	String description() default "";

	/**
	 * Whether {@code prompts/get} must name the argument; an optional one the client
	 * leaves out is {@code null} (so its parameter cannot be a primitive).
	 * @return whether it is required
	 */
	boolean required() default true;

	/**
	 * The values {@code completion/complete} suggests, those starting with what the user
	 * typed; a {@link PromptCompleter} bean can suggest others.
	 * @return the values
	 */
	String[] values() default {};

}
