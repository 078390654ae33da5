package io.github.mcpsubscriptions.resource;

import java.util.Base64;

import org.jspecify.annotations.Nullable;

/**
 * Binary contents of a resource.
 *
 * @param uri the URI
 * @param mimeType the MIME type, or {@code null}
 * @param blob the bytes, Base64-encoded as they travel
 * @since 0.1.0
 */
public record BlobResourceContents(String uri, @Nullable String mimeType, String blob) implements ResourceContents {

	/**
	 * Blob contents from raw bytes.
	 * @param uri the URI
	 * @param mimeType the MIME type
	 * @param bytes the bytes
	 * @return the contents
	 */
	public static BlobResourceContents of(String uri, @Nullable String mimeType, byte[] bytes) {
		return new BlobResourceContents(uri, mimeType, Base64.getEncoder().encodeToString(bytes));
	}

}
