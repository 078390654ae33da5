package io.github.mcpsubscriptions.prompt;

import java.util.Base64;

import io.github.mcpsubscriptions.resource.ResourceContents;

/**
 * What a {@link PromptMessage} holds: text, an image, audio, or an embedded resource.
 *
 * @since 0.1.0
 */
public sealed interface PromptContent
		permits PromptContent.Text, PromptContent.Image, PromptContent.Audio, PromptContent.EmbeddedResource {

	/**
	 * Text.
	 * @param text the text
	 * @return the content
	 */
	static Text text(String text) {
		return new Text(text);
	}

	/**
	 * An image.
	 * @param data the image's bytes
	 * @param mimeType its MIME type, such as {@code image/png}
	 * @return the content
	 */
	static Image image(byte[] data, String mimeType) {
		return new Image(Base64.getEncoder().encodeToString(data), mimeType);
	}

	/**
	 * Audio.
	 * @param data the audio's bytes
	 * @param mimeType its MIME type, such as {@code audio/wav}
	 * @return the content
	 */
	static Audio audio(byte[] data, String mimeType) {
		return new Audio(Base64.getEncoder().encodeToString(data), mimeType);
	}

	/**
	 * A resource's contents, embedded.
	 * @param resource the contents (text or blob)
	 * @return the content
	 */
	static EmbeddedResource resource(ResourceContents resource) {
		return new EmbeddedResource(resource);
	}

	/**
	 * Text content.
	 *
	 * @param text the text
	 */
	record Text(String text) implements PromptContent {
	}

	/**
	 * Image content.
	 *
	 * @param data the image, base64-encoded
	 * @param mimeType its MIME type
	 */
	record Image(String data, String mimeType) implements PromptContent {
	}

	/**
	 * Audio content.
	 *
	 * @param data the audio, base64-encoded
	 * @param mimeType its MIME type
	 */
	record Audio(String data, String mimeType) implements PromptContent {
	}

	/**
	 * An embedded resource.
	 *
	 * @param resource its contents
	 */
	record EmbeddedResource(ResourceContents resource) implements PromptContent {
	}

}
