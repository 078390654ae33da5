package io.github.mcpsubscriptions.sample.conformance;

import java.util.Base64;
import java.util.List;

import io.github.mcpsubscriptions.prompt.McpPrompt;
import io.github.mcpsubscriptions.prompt.McpPromptArgument;
import io.github.mcpsubscriptions.prompt.PromptContent;
import io.github.mcpsubscriptions.prompt.PromptMessage;
import io.github.mcpsubscriptions.resource.ResourceContents;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The prompts the official MCP conformance suite gets, active only under the Spring
 * profile {@code conformance}, written as {@link McpPrompt} methods.
 */
@Component
@Profile("conformance")
public class ConformancePrompts {

	@McpPrompt(name = "test_simple_prompt", description = "A simple prompt without arguments")
	public String simplePrompt() {
		return "This is a simple prompt for testing.";
	}

	@McpPrompt(name = "test_prompt_with_arguments", description = "A prompt with two required arguments")
	public String promptWithArguments(
			@McpPromptArgument(description = "First test argument",
					values = { "test", "testing", "other" }) String arg1,
			@McpPromptArgument(description = "Second test argument") String arg2) {
		return "Prompt with arguments: arg1='" + arg1 + "', arg2='" + arg2 + "'";
	}

	@McpPrompt(name = "test_prompt_with_embedded_resource", description = "A prompt that embeds a resource")
	public List<PromptMessage> promptWithEmbeddedResource(
			@McpPromptArgument(description = "URI of the resource to embed") String resourceUri) {
		return List.of(
				PromptMessage.user(PromptContent.resource(
						ResourceContents.text(resourceUri, "text/plain", "Embedded resource content for testing."))),
				PromptMessage.user("Please process the embedded resource above."));
	}

	@McpPrompt(name = "test_prompt_with_image", description = "A prompt with an image")
	public List<PromptMessage> promptWithImage() {
		return List.of(
				PromptMessage.user(PromptContent
					.image(Base64.getDecoder().decode(ConformanceFixtures.STATIC_BINARY_BASE64), "image/png")),
				PromptMessage.user("Please analyze the image above."));
	}

}
