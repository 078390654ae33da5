package io.github.mcpsubscriptions.session;

import java.util.List;

/**
 * The MCP protocol versions this server speaks: the 2025-era ones (with sessions) and the
 * stateless 2026-era one, and what differs between them.
 *
 * @since 0.1.0
 */
public final class ProtocolVersions {

	/** The newest 2025-era version: sessions, {@code initialize}, GET streams. */
	public static final String V2025_11_25 = "2025-11-25";

	/** The 2025-era version before 2025-11-25. */
	public static final String V2025_06_18 = "2025-06-18";

	/** The oldest version served; the only one whose clients may send batches. */
	public static final String V2025_03_26 = "2025-03-26";

	/** The 2025-era versions, newest first. */
	public static final List<String> SESSION_ERA = List.of(V2025_11_25, V2025_06_18, V2025_03_26);

	/**
	 * The stateless era: no sessions, per-request {@code _meta}, subscriptions/listen.
	 */
	public static final String V2026_07_28 = "2026-07-28";

	/** Every version served, newest first. */
	public static final List<String> ALL = List.of(V2026_07_28, V2025_11_25, V2025_06_18, V2025_03_26);

	private ProtocolVersions() {
	}

	/**
	 * Whether a version is one of the 2025-era versions served.
	 * @param version a version string, possibly {@code null}
	 * @return whether it is supported
	 */
	public static boolean isSessionEra(String version) {
		return SESSION_ERA.contains(version);
	}

	/**
	 * The version to answer an {@code initialize} with: the requested one if supported,
	 * otherwise the latest.
	 * @param requested the client's version
	 * @return the negotiated version
	 */
	public static String negotiate(String requested) {
		return isSessionEra(requested) ? requested : V2025_11_25;
	}

	/**
	 * Whether clients of a version may send JSON-RPC batches (2025-03-26 only).
	 * @param version the negotiated version
	 * @return whether batches are accepted
	 */
	public static boolean acceptsBatches(String version) {
		return V2025_03_26.equals(version);
	}

	/**
	 * Whether clients of a version expect SSE priming events (an id with empty data) and
	 * understand them; older clients fail on empty data.
	 * @param version the negotiated version
	 * @return whether priming events may be sent
	 */
	public static boolean supportsPriming(String version) {
		return V2025_11_25.compareTo(version) <= 0;
	}

}
