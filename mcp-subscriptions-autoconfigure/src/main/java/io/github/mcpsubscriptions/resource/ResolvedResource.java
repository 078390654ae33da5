package io.github.mcpsubscriptions.resource;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A concrete URI resolved to the definition that serves it.
 *
 * @param definition the resource or template
 * @param uri the concrete URI
 * @param variables the template variables, empty for a static resource
 * @since 0.1.0
 */
public record ResolvedResource(ResourceDefinition definition, String uri, Map<String, String> variables) {

	/**
	 * The request to hand to the definition's reader.
	 * @return the request
	 */
	public ResourceRequest request() {
		return request(null);
	}

	/**
	 * The request to hand to the definition's reader, with the client's {@code _meta}.
	 * @param meta the request's {@code _meta} as JSON text, or {@code null}
	 * @return the request
	 */
	public ResourceRequest request(@Nullable String meta) {
		return new ResourceRequest(this.uri, this.variables, meta);
	}

}
