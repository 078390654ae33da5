package io.github.mcpsubscriptions.resource;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Suggests values for a resource template's variable ({@code completion/complete} with a
 * {@code ref/resource} reference). Completers are asked in order; the first that answers
 * wins. Without one, values come from the template's instance lister. Either way, a value
 * is offered only if the resource access policy lets the caller read the URI it makes.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ResourceCompleter {

	/**
	 * Suggest values.
	 * @param uriTemplate the template, as declared
	 * @param variable the variable being completed
	 * @param prefix what the user typed so far
	 * @param context values of the template's other variables, already chosen
	 * @return the suggestions, or {@code null} if this completer does not handle the
	 * template
	 */
	@Nullable List<String> complete(String uriTemplate, String variable, String prefix, Map<String, String> context);

}
