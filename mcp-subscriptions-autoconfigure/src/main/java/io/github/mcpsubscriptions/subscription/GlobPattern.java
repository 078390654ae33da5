package io.github.mcpsubscriptions.subscription;

import java.util.Arrays;

/**
 * A compiled glob for pattern subscriptions: {@code *} matches any run of characters
 * except {@code /}, {@code **} any run including {@code /}, {@code **}{@code /} zero or
 * more whole directories, {@code ?} one character except {@code /}; everything else is
 * literal. Matching simulates the pattern as an automaton, so it takes time proportional
 * to the text length times the pattern length, whatever the input.
 */
final class GlobPattern {

	private static final byte LITERAL = 0;

	/** {@code ?}: one character other than {@code /}. */
	private static final byte ONE = 1;

	/** {@code *}: any run of characters other than {@code /}. */
	private static final byte STAR = 2;

	/** {@code **} not followed by {@code /}: any run of characters. */
	private static final byte DOUBLE_STAR = 3;

	/**
	 * {@code **}{@code /}: reads nothing, but moves on both past the
	 * {@link #DIRECTORY_RUN} that follows it (no directory) and into it.
	 */
	private static final byte DIRECTORIES = 4;

	/** After {@link #DIRECTORIES}: any run of characters that ends with {@code /}. */
	private static final byte DIRECTORY_RUN = 5;

	private final String glob;

	private final byte[] types;

	/** The code point of each {@link #LITERAL} step. */
	private final int[] literals;

	private GlobPattern(String glob, byte[] types, int[] literals) {
		this.glob = glob;
		this.types = types;
		this.literals = literals;
	}

	/**
	 * How many wildcards ({@code *}, {@code **}, {@code ?}) the glob has.
	 * @return the count
	 */
	int wildcards() {
		int count = 0;
		for (byte type : this.types) {
			if (type != LITERAL && type != DIRECTORY_RUN) {
				count++;
			}
		}
		return count;
	}

	/**
	 * Compiles a glob, once per subscription URI.
	 * @param glob the glob, already percent-decoded
	 * @return the compiled glob
	 * @throws IllegalArgumentException if the glob is empty or has a run of three or more
	 * {@code *}
	 */
	static GlobPattern compile(String glob) {
		if (glob.isEmpty()) {
			throw new IllegalArgumentException("the glob is empty");
		}
		byte[] types = new byte[glob.length() + 1];
		int[] literals = new int[glob.length() + 1];
		int count = 0;
		int index = 0;
		while (index < glob.length()) {
			int codePoint = glob.codePointAt(index);
			if (codePoint == '*') {
				int run = 1;
				while (index + run < glob.length() && glob.charAt(index + run) == '*') {
					run++;
				}
				if (run > 2) {
					throw new IllegalArgumentException("the glob \"" + glob + "\" has a run of " + run
							+ " '*' at index " + index + "; use '*' within a segment or '**' across segments");
				}
				index += run;
				if (run == 1) {
					types[count++] = STAR;
				}
				else if (index < glob.length() && glob.charAt(index) == '/') {
					types[count++] = DIRECTORIES;
					types[count++] = DIRECTORY_RUN;
					index++;
				}
				else {
					types[count++] = DOUBLE_STAR;
				}
				continue;
			}
			if (codePoint == '?') {
				types[count++] = ONE;
			}
			else {
				types[count] = LITERAL;
				literals[count++] = codePoint;
			}
			index += Character.charCount(codePoint);
		}
		return new GlobPattern(glob, Arrays.copyOf(types, count), Arrays.copyOf(literals, count));
	}

	/**
	 * Whether the glob matches the whole of {@code text[start, end)}.
	 * @param text the text that holds the region
	 * @param start the first index of the region
	 * @param end the index after the region
	 * @return whether the glob matches the region
	 */
	boolean matches(String text, int start, int end) {
		int steps = this.types.length;
		// active[k]: whether the text read so far can end just before step k.
		boolean[] active = new boolean[steps + 1];
		boolean[] next = new boolean[steps + 1];
		active[0] = true;
		closeOverEmpty(active);
		int index = start;
		while (index < end) {
			int codePoint = text.codePointAt(index);
			index += Character.charCount(codePoint);
			Arrays.fill(next, false);
			boolean any = false;
			for (int k = 0; k < steps; k++) {
				if (active[k]) {
					any |= step(k, codePoint, next);
				}
			}
			if (!any) {
				return false;
			}
			closeOverEmpty(next);
			boolean[] swap = active;
			active = next;
			next = swap;
		}
		return active[steps];
	}

	private boolean step(int k, int codePoint, boolean[] next) {
		switch (this.types[k]) {
			case LITERAL:
				if (this.literals[k] == codePoint) {
					next[k + 1] = true;
					return true;
				}
				return false;
			case ONE:
				if (codePoint != '/') {
					next[k + 1] = true;
					return true;
				}
				return false;
			case STAR:
				if (codePoint != '/') {
					next[k] = true;
					return true;
				}
				return false;
			case DOUBLE_STAR:
				next[k] = true;
				return true;
			case DIRECTORY_RUN:
				next[k] = true;
				if (codePoint == '/') {
					next[k + 1] = true;
				}
				return true;
			default:
				return false;
		}
	}

	/**
	 * Lets the automaton move past steps that can match nothing without reading; a single
	 * forward pass suffices since such moves only go forward.
	 */
	private void closeOverEmpty(boolean[] states) {
		for (int k = 0; k < this.types.length; k++) {
			if (states[k]) {
				byte type = this.types[k];
				if (type == STAR || type == DOUBLE_STAR || type == DIRECTORIES) {
					states[k + 1] = true;
				}
				if (type == DIRECTORIES) {
					states[k + 2] = true;
				}
			}
		}
	}

	@Override
	public String toString() {
		return this.glob;
	}

}
