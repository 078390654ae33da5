/**
 * Changes made by any writer: committed row changes that the database itself records (a
 * change table filled by triggers) become changes of the mapped resources. The reader
 * loop, the row to URI mapping, meters and health are here; a database takes part through
 * {@link io.github.mcpsubscriptions.capture.CaptureDatabase}.
 */
@NullMarked
package io.github.mcpsubscriptions.capture;

import org.jspecify.annotations.NullMarked;
