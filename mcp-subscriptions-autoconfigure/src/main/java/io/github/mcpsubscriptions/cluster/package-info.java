/**
 * Scale-out over Redis: a shared change log that every node reads, so that changes
 * published on any node reach the streams of every node.
 */
@NullMarked
package io.github.mcpsubscriptions.cluster;

import org.jspecify.annotations.NullMarked;
