package io.github.mcpsubscriptions.capture;

import java.util.Map;

/**
 * The attributes a captured change carries beside {@code change}, in the notification's
 * {@code _meta}: a captured table's resources are notified by the capture alone, so the
 * attributes an application put on its own {@code ResourceChangedEvent} for such a row
 * are dropped with that event; a bean of this type gives them back. It runs on the
 * capture's reader thread for every captured change, so it should be quick: what it
 * returns is computed from the change itself, or from what the application already holds,
 * not from a query per row.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface CapturedChangeAttributes {

	/**
	 * The attributes of one captured change.
	 * @param table the captured table, as {@code mcp.capture.tables} names it
	 * @param uri the changed resource
	 * @param change {@code created}, {@code updated} or {@code deleted}
	 * @return the attributes to add; a {@code change} entry is ignored (the capture's own
	 * is kept), an empty map adds nothing
	 */
	Map<String, Object> attributes(String table, String uri, String change);

}
