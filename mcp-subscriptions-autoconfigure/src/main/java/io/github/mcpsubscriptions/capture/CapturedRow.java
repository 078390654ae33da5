package io.github.mcpsubscriptions.capture;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One committed row change as the database recorded it: only the columns the table's URI
 * template needs.
 *
 * @param position where it stands in the record
 * @param table the changed table, schema-qualified as the database names it
 * @param operation what happened to the row
 * @param newValues the template's columns after the change, {@code null} for a delete
 * @param oldValues the template's columns before the change, {@code null} for an insert
 * @param writtenAt when the row was written in its transaction
 * @since 0.1.0
 */
public record CapturedRow(CapturePosition position, String table, Operation operation,
		@Nullable Map<String, @Nullable Object> newValues, @Nullable Map<String, @Nullable Object> oldValues,
		Instant writtenAt) {

	/**
	 * What happened to a row.
	 *
	 * @since 0.1.0
	 */
	public enum Operation {

		/** The row was inserted. */
		INSERT,

		/** The row was updated. */
		UPDATE,

		/** The row was deleted. */
		DELETE

	}

}
