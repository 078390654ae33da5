package io.github.mcpsubscriptions.server;

import org.jspecify.annotations.Nullable;

/**
 * How the server introduces itself to clients.
 *
 * @param name the server name
 * @param version the server version
 * @param title a human-readable title, or {@code null}
 * @param instructions instructions on how to use the server, which clients may add to a
 * model's prompt, or {@code null}
 * @since 0.1.0
 */
public record McpServerInfo(String name, String version, @Nullable String title, @Nullable String instructions) {

}
