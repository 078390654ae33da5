package io.github.mcpsubscriptions.prompt;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a Spring bean as an MCP prompt, served by {@code prompts/list} and
 * {@code prompts/get}.
 * <p>
 * Every parameter is an argument of the prompt, named after the parameter (compile with
 * {@code -parameters}) or by {@link McpPromptArgument}, required unless that annotation
 * says otherwise; arguments arrive as strings and are converted to the parameter's type
 * with Spring's {@code ConversionService}. A {@link PromptRequest} parameter receives the
 * prompt's name, every argument and the caller instead. The method returns a
 * {@code String} (one user text message), a {@link PromptContent} (one user message), a
 * {@link PromptMessage}, a {@code List} of messages, or a {@link PromptResult} (full
 * control). Throwing {@link IllegalArgumentException} tells the client its arguments are
 * invalid ({@code -32602}, with the exception's message); any other exception is logged
 * and answered with a safe message.
 * <p>
 * Not to be confused with Spring AI's annotation of the same simple name.
 *
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface McpPrompt {

	/**
	 * The prompt's unique name; defaults to the method name.
	 * @return the name
	 */
	String name() default "";

	/**
	 * A human-readable title.
	 * @return the title
	 */
	String title() default "";

	/**
	 * What the prompt is for, shown to users choosing one.
	 * @return the description
	 */
	String description() default "";

}
