package io.github.mcpsubscriptions.capture;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.resource.UriTemplate;
import org.jspecify.annotations.Nullable;

/**
 * A captured table and the URI template that names the resource of each of its rows.
 *
 * @param name the table as configured, optionally schema-qualified
 * @param template the URI template; its variables name columns of the table
 * @since 0.1.0
 */
public record CapturedTable(String name, UriTemplate template) {

	/**
	 * The columns the template needs.
	 * @return the column names, in the template's order
	 */
	public List<String> columns() {
		return this.template.getVariableNames();
	}

	/**
	 * Whether a URI names a row of this table: it matches the template with a value for
	 * every variable (a template may match its collection's URI with empty values).
	 * @param uri the URI
	 * @return whether it names a row
	 */
	public boolean names(String uri) {
		Map<String, String> values = this.template.match(uri);
		if (values == null) {
			return false;
		}
		for (String column : columns()) {
			String value = values.get(column);
			if (value == null || value.isEmpty()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The URI of a row.
	 * @param values the row's values of the template's columns
	 * @return the URI, or {@code null} if a value is missing or the template rejects it
	 */
	public @Nullable String uri(@Nullable Map<String, @Nullable Object> values) {
		if (values == null) {
			return null;
		}
		Map<String, Object> present = new HashMap<>();
		for (String column : columns()) {
			Object value = values.get(column);
			if (value == null) {
				return null;
			}
			present.put(column, value);
		}
		try {
			return this.template.expand(present);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

}
