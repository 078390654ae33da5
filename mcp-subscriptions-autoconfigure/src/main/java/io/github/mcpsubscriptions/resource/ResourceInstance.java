package io.github.mcpsubscriptions.resource;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One concrete resource of a template, as listed by {@code resources/list}.
 *
 * @param variables the template variable values
 * @param name the name, or {@code null} for the template's name and the values
 * @param title the title, or {@code null}
 * @param description the description, or {@code null} for the template's
 * @since 0.1.0
 */
public record ResourceInstance(Map<String, ?> variables, @Nullable String name, @Nullable String title,
		@Nullable String description) {

	public ResourceInstance(Map<String, ?> variables) {
		this(variables, null, null, null);
	}

}
