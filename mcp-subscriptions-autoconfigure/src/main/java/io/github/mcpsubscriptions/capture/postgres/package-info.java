/**
 * The PostgreSQL change capture: a trigger-filled change table,
 * {@code LISTEN}/{@code NOTIFY} to wake the reader, transaction ids below the snapshot's
 * xmin as an exact cursor, and an advisory lock as the reader's lease.
 */
@NullMarked
package io.github.mcpsubscriptions.capture.postgres;

import org.jspecify.annotations.NullMarked;
