/**
 * Prompts: {@link io.github.mcpsubscriptions.prompt.McpPrompt @McpPrompt} methods, what a
 * prompt is ({@link io.github.mcpsubscriptions.prompt.Prompt}) and the messages it gives,
 * the registry of the prompts the server offers, and the extension points that decide who
 * may get a prompt and complete its arguments. Integrations adapt their prompts to
 * {@link io.github.mcpsubscriptions.prompt.Prompt} and register them with the
 * {@link io.github.mcpsubscriptions.prompt.PromptRegistry}.
 */
@NullMarked
package io.github.mcpsubscriptions.prompt;

import org.jspecify.annotations.NullMarked;
