package io.github.mcpsubscriptions.springai;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import io.github.mcpsubscriptions.prompt.Prompt;
import io.github.mcpsubscriptions.prompt.PromptArgument;
import io.github.mcpsubscriptions.prompt.PromptDefinition;
import io.github.mcpsubscriptions.prompt.PromptRequest;
import io.github.mcpsubscriptions.prompt.PromptResult;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * A method annotated with Spring AI's {@code @McpPrompt}, served through Spring AI's own
 * stateless callback; its {@code @McpComplete} method, if any, completes its arguments.
 */
final class SpringAiMcpPrompt implements Prompt {

	private final PromptDefinition definition;

	private final BiFunction<McpTransportContext, McpSchema.GetPromptRequest, McpSchema.GetPromptResult> handler;

	private final @Nullable Completion completer;

	private final Method method;

	private final Object target;

	SpringAiMcpPrompt(McpSchema.Prompt prompt,
			BiFunction<McpTransportContext, McpSchema.GetPromptRequest, McpSchema.GetPromptResult> handler,
			@Nullable Completion completer, Method method, Object target) {
		List<PromptArgument> arguments = (prompt.arguments() != null) ? prompt.arguments()
			.stream()
			.map((argument) -> new PromptArgument(argument.name(), argument.title(), argument.description(),
					Boolean.TRUE.equals(argument.required())))
			.toList() : List.of();
		this.definition = new PromptDefinition(prompt.name(), prompt.title(), prompt.description(), arguments);
		this.handler = handler;
		this.completer = completer;
		this.method = method;
		this.target = target;
	}

	@Override
	public PromptDefinition getDefinition() {
		return this.definition;
	}

	@Override
	public PromptResult get(PromptRequest request) {
		Map<String, Object> arguments = new LinkedHashMap<>(request.arguments());
		McpSchema.GetPromptResult result = this.handler.apply(SpringAiContexts.of(request.principal()),
				new McpSchema.GetPromptRequest(this.definition.name(), arguments,
						(request.meta() != null) ? McpSchemaConversions.readObject(request.meta()) : null));
		return McpSchemaConversions.promptResult(result);
	}

	@Override
	public List<String> complete(String argument, String prefix, Map<String, String> context) {
		if (this.completer == null) {
			return List.of();
		}
		McpSchema.CompleteRequest request = new McpSchema.CompleteRequest(
				new McpSchema.PromptReference(this.definition.name()),
				new McpSchema.CompleteRequest.CompleteArgument(argument, prefix),
				new McpSchema.CompleteRequest.CompleteContext(context));
		return SpringAiAnnotationsRegistrar.values(this.completer.apply(McpTransportContext.EMPTY, request));
	}

	@Override
	public @Nullable Method getMethod() {
		return this.method;
	}

	@Override
	public @Nullable Object getTarget() {
		return this.target;
	}

	@Override
	public String toString() {
		return "Spring AI @McpPrompt '" + this.definition.name() + "'";
	}

	/**
	 * A Spring AI {@code @McpComplete} method's handler.
	 */
	interface Completion extends BiFunction<McpTransportContext, McpSchema.CompleteRequest, McpSchema.CompleteResult> {

	}

}
