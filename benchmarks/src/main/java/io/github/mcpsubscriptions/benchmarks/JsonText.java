package io.github.mcpsubscriptions.benchmarks;

/**
 * Escapes text for a JSON string, for the hand-written JSON of the benchmarks (a baseline
 * that must not use a JSON library, and the harness's report lines).
 */
public final class JsonText {

	private JsonText() {
	}

	/**
	 * Append text with quotes, backslashes and control characters escaped.
	 * @param json where to append
	 * @param text the text, without surrounding quotes
	 */
	public static void escape(StringBuilder json, String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '"' || c == '\\') {
				json.append('\\').append(c);
			}
			else if (c < 0x20) {
				json.append(String.format("\\u%04x", (int) c));
			}
			else {
				json.append(c);
			}
		}
	}

}
