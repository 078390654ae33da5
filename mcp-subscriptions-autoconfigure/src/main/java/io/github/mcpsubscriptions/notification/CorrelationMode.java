package io.github.mcpsubscriptions.notification;

import tools.jackson.databind.JsonNode;

/**
 * Which subscribers get the SEP's correlation: one
 * {@code notifications/resources/updated} per matching subscription, each naming it in
 * {@code subscribedUri}. The others get one notification per change, merged across their
 * matching subscriptions, so that a client whose schema drops {@code subscribedUri} does
 * not see (and re-read) duplicates.
 *
 * @since 0.1.0
 */
public enum CorrelationMode {

	/**
	 * Correlation for the clients that declare {@link #CAPABILITY}, one notification per
	 * change (naming the most specific matching subscription) for the others.
	 */
	AUTO,

	/**
	 * Correlation for every client, declared or not.
	 */
	ALWAYS,

	/**
	 * One notification per change for every client, without {@code subscribedUri}.
	 */
	NEVER;

	/**
	 * The capability key a client declares (in {@code experimental}, or in 2026 also
	 * {@code extensions}, with any object value) to get correlation, and the server
	 * advertises.
	 */
	public static final String CAPABILITY = "io.github.mcpsubscriptions/correlation";

	/**
	 * Whether a subscriber gets one notification per matching subscription.
	 * @param declared whether its client declared {@link #CAPABILITY}
	 * @return whether notifications are correlated
	 */
	public boolean correlates(boolean declared) {
		return this == ALWAYS || (this == AUTO && declared);
	}

	/**
	 * Whether client capabilities declare {@link #CAPABILITY}.
	 * @param capabilities the client's capabilities, or {@code null}
	 * @return whether they do
	 */
	public static boolean isDeclaredIn(JsonNode capabilities) {
		if (capabilities == null || !capabilities.isObject()) {
			return false;
		}
		for (String container : new String[] { "experimental", "extensions" }) {
			JsonNode entries = capabilities.get(container);
			if (entries != null && entries.isObject() && entries.has(CAPABILITY)) {
				return true;
			}
		}
		return false;
	}

}
