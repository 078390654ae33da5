package io.github.mcpsubscriptions.resource;

import org.jspecify.annotations.Nullable;

/**
 * The contents of a resource as sent to the client: text or a blob. Return these from an
 * {@link McpResource} method for full control over URI and MIME type.
 *
 * @since 0.1.0
 */
public sealed interface ResourceContents permits TextResourceContents, BlobResourceContents {

	/**
	 * The URI of these contents.
	 * @return the URI
	 */
	String uri();

	/**
	 * The MIME type of these contents.
	 * @return the MIME type, or {@code null} if unknown
	 */
	@Nullable String mimeType();

	/**
	 * Text contents.
	 * @param uri the URI
	 * @param mimeType the MIME type
	 * @param text the text
	 * @return the contents
	 */
	static TextResourceContents text(String uri, @Nullable String mimeType, String text) {
		return new TextResourceContents(uri, mimeType, text);
	}

	/**
	 * Binary contents, sent Base64-encoded.
	 * @param uri the URI
	 * @param mimeType the MIME type
	 * @param bytes the bytes
	 * @return the contents
	 */
	static BlobResourceContents blob(String uri, @Nullable String mimeType, byte[] bytes) {
		return BlobResourceContents.of(uri, mimeType, bytes);
	}

}
