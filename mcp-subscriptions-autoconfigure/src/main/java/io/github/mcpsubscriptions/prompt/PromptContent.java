package io.github.mcpsubscriptions.prompt;

import java.util.Base64;

import io.github.mcpsubscriptions.resource.ResourceContents;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link PromptMessage} holds: text, an image, audio, an embedded resource, or a
 * link to a resource the client may read.
 *
 * @since 0.1.0
 */
public sealed interface PromptContent permits PromptContent.Text, PromptContent.Image, PromptContent.Audio,
		PromptContent.EmbeddedResource, PromptContent.ResourceLink {

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
	 * A link to a resource, which the client reads if it wants it (protocol 2025-06-18
	 * and later).
	 * @param uri the resource's URI
	 * @param name its name
	 * @return the content
	 */
	static ResourceLink resourceLink(String uri, String name) {
		return new ResourceLink(uri, name, null, null, null);
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

	/**
	 * A link to a resource.
	 *
	 * @param uri the resource's URI
	 * @param name its name
	 * @param title a display name, or {@code null}
	 * @param description what it is, or {@code null}
	 * @param mimeType its MIME type, or {@code null}
	 */
	record ResourceLink(String uri, String name, @Nullable String title, @Nullable String description,
			@Nullable String mimeType) implements PromptContent {
	}

}
