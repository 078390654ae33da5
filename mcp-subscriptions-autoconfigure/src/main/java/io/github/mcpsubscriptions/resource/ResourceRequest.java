package io.github.mcpsubscriptions.resource;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A read of a resource: the URI asked for and, for a template, its variables.
 *
 * @param uri the concrete URI
 * @param variables the template variables, percent-decoded; empty for a static resource
 * @param meta the request's {@code _meta} as the client sent it (a JSON object as text),
 * or {@code null} when it sent none
 * @since 0.1.0
 */
public record ResourceRequest(String uri, Map<String, String> variables, @Nullable String meta) {

	/**
	 * A read without {@code _meta}.
	 * @param uri the concrete URI
	 * @param variables the template variables, percent-decoded; empty for a static
	 * resource
	 */
	public ResourceRequest(String uri, Map<String, String> variables) {
		this(uri, variables, null);
	}

}
