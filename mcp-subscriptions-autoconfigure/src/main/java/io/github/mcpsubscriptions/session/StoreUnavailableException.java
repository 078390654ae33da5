package io.github.mcpsubscriptions.session;

/**
 * The shared store of a clustered deployment (its Redis) cannot be reached. Requests that
 * need it answer 503 with {@code Retry-After}; open streams stay open, and the node
 * recovers by itself when the store is back.
 *
 * @since 0.1.0
 */
public class StoreUnavailableException extends RuntimeException {

	/**
	 * Create a new exception.
	 * @param message what could not be done
	 * @param cause the store's failure
	 */
	public StoreUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

}
