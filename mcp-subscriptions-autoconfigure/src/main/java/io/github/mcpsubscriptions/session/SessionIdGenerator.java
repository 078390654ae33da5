package io.github.mcpsubscriptions.session;

/**
 * Creates session ids. Ids are bearer secrets: they must be unguessable and consist of
 * visible ASCII characters only (0x21 to 0x7E).
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface SessionIdGenerator {

	/**
	 * Create a new session id.
	 * @return the id
	 */
	String generateId();

}
