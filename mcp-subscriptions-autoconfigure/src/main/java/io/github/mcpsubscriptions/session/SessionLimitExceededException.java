package io.github.mcpsubscriptions.session;

/**
 * A new session would exceed {@code mcp.sessions.max}, or
 * {@code mcp.sessions.max-per-principal} for the principal that asked.
 *
 * @since 0.1.0
 */
public class SessionLimitExceededException extends RuntimeException {

	/** The property of the server-wide limit. */
	public static final String MAX = "mcp.sessions.max";

	/** The property of the limit per principal. */
	public static final String MAX_PER_PRINCIPAL = "mcp.sessions.max-per-principal";

	private final int limit;

	private final String property;

	public SessionLimitExceededException(int limit) {
		this(MAX, limit);
	}

	/**
	 * Create an exception for one of the session limits.
	 * @param property the property that sets the limit ({@link #MAX} or
	 * {@link #MAX_PER_PRINCIPAL})
	 * @param limit its value
	 */
	public SessionLimitExceededException(String property, int limit) {
		super(MAX_PER_PRINCIPAL.equals(property)
				? "This principal's session limit (" + property + "=" + limit
						+ ") is reached; end one of its sessions (DELETE) or try again later"
				: "The server's session limit (" + property + "=" + limit + ") is reached; try again later", null,
				false, false);
		this.limit = limit;
		this.property = property;
	}

	public int getLimit() {
		return this.limit;
	}

	/**
	 * The property that sets the limit reached, as named in the error's
	 * {@code data.limit}.
	 * @return the property name
	 */
	public String getProperty() {
		return this.property;
	}

}
