package io.github.mcpsubscriptions.resource;

import java.util.Map;

/**
 * A read of a resource: the URI asked for and, for a template, its variables.
 *
 * @param uri the concrete URI
 * @param variables the template variables, percent-decoded; empty for a static resource
 * @since 0.1.0
 */
public record ResourceRequest(String uri, Map<String, String> variables) {

}
