package io.github.mcpsubscriptions.resource;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * An RFC 6570 URI template for MCP resource templates such as
 * {@code catalog://products/{id}}, {@code file:///{+path}} or
 * {@code weather://city/{name}{?units,lang}}: it expands values into a URI and matches a
 * concrete URI back into values.
 *
 * <h2>Supported syntax</h2>
 * <ul>
 * <li>{@code {var}} simple expansion: everything but unreserved characters
 * ({@code A-Za-z0-9-._~}) is percent-encoded as UTF-8. It matches one or more characters
 * other than {@code /}, {@code ?} and {@code #}.</li>
 * <li>{@code {+var}} reserved expansion: like simple expansion, but reserved characters
 * ({@code :/?#[]@!$&'()*+,;=}) and existing {@code %XX} triplets are kept. It matches one
 * or more characters other than {@code ?} and {@code #}, slashes included.</li>
 * <li>{@code {?a,b}} form-style query: expands to {@code ?a=1&b=2} for the variables that
 * have a value, and to nothing if none has. It must be the last expression. When
 * matching, the query is optional, and every {@code key=value} pair in it must name a
 * declared variable once; absent variables are missing from the result.</li>
 * <li>{@code {&a,b}} form-style query continuation: like {@code {?a,b}}, but after a
 * literal query such as {@code ?format=json}, so its pairs start with {@code &}.</li>
 * </ul>
 * Variable names are made of {@code A-Za-z0-9_}, with single dots inside; each variable
 * may appear only once. Simple and reserved expressions take exactly one variable, and
 * two of them cannot be adjacent since a URI could not be split between them. Other
 * operators and the {@code *} and {@code :n} modifiers are rejected.
 *
 * <h2>Matching</h2> Matching is exact: the whole URI must match, and literal text is
 * compared case-sensitively. Values are percent-decoded as UTF-8 (a {@code +} stays a
 * {@code +}); raw non-ASCII characters are kept as they are, and a URI with invalid
 * percent-encoding does not match. Simple and reserved expressions that follow a literal
 * {@code ?} do not match {@code &} either, as it separates query parameters. When a URI
 * can be split in more than one way, earlier expressions take as much as they can.
 * Matching takes time linear in the length of the URI for a given template.
 *
 * <h2>Specificity</h2> When several templates match a URI, the most specific one wins, as
 * ordered by {@link #SPECIFICITY}:
 * <ol>
 * <li>more literal characters (outside expressions) first;</li>
 * <li>then fewer {@code {+...}} reserved expressions first;</li>
 * <li>then fewer variables first;</li>
 * <li>then the template text in natural order, so the order is total.</li>
 * </ol>
 * For example, {@code file:///docs/{name}} is more specific than {@code file:///{+path}},
 * and {@code catalog://products/{id}} is more specific than {@code catalog://{+rest}}.
 *
 * @since 0.1.0
 */
public final class UriTemplate {

	/**
	 * Orders templates most specific first, to choose among several templates that match
	 * one URI: more literal characters, then fewer reserved expressions, then fewer
	 * variables, then the template text.
	 */
	public static final Comparator<UriTemplate> SPECIFICITY = Comparator
		.comparingInt((UriTemplate candidate) -> candidate.literalLength)
		.reversed()
		.thenComparingInt((candidate) -> candidate.reservedCount)
		.thenComparingInt((candidate) -> candidate.variableNames.size())
		.thenComparing((candidate) -> candidate.template);

	private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)*");

	private static final String UNSUPPORTED_OPERATORS = "#./;=,!@|";

	private static final String RESERVED_CHARACTERS = ":/?#[]@!$&'()*+,;=";

	private static final char[] HEX_DIGITS = "0123456789ABCDEF".toCharArray();

	private final String template;

	/** The literals and simple or reserved expressions, without the query expression. */
	private final List<Part> parts;

	private final @Nullable Expression query;

	private final List<String> variableNames;

	private final String literalPrefix;

	private final int literalLength;

	private final int reservedCount;

	private UriTemplate(String template) {
		this.template = template;
		List<Part> allParts = new Parser(template).parse();
		@Nullable Part last = allParts.isEmpty() ? null : allParts.get(allParts.size() - 1);
		this.query = (last instanceof Expression expression && expression.operator().isQuery()) ? expression : null;
		this.parts = List.copyOf((this.query != null) ? allParts.subList(0, allParts.size() - 1) : allParts);
		List<String> names = new ArrayList<>();
		int literals = 0;
		int reserved = 0;
		for (Part part : allParts) {
			if (part instanceof Literal literal) {
				literals += literal.text().length();
			}
			else if (part instanceof Expression expression) {
				names.addAll(expression.names());
				if (expression.operator() == Operator.RESERVED) {
					reserved++;
				}
			}
		}
		this.variableNames = List.copyOf(names);
		this.literalLength = literals;
		this.reservedCount = reserved;
		this.literalPrefix = (!allParts.isEmpty() && allParts.get(0) instanceof Literal literal) ? literal.text() : "";
	}

	/**
	 * Parses a URI template, to expand and match URIs with it.
	 * @param template the template text, such as {@code catalog://products/{id}}
	 * @return the parsed template
	 * @throws IllegalArgumentException if the template is invalid or uses syntax that is
	 * not supported, with a message that says what is wrong and where
	 */
	public static UriTemplate parse(String template) {
		return new UriTemplate(template);
	}

	/**
	 * Whether a URI is a template rather than a concrete URI, to tell resource templates
	 * from resources.
	 * @param uri the URI or template text
	 * @return whether it contains an expression opening brace
	 */
	public static boolean isTemplate(String uri) {
		return uri.indexOf('{') >= 0;
	}

	/**
	 * The template text, as given to {@link #parse(String)}.
	 * @return the template text
	 */
	public String getTemplate() {
		return this.template;
	}

	/**
	 * The names of the template's variables, to describe what a match yields.
	 * @return the names, in order of appearance
	 */
	public List<String> getVariableNames() {
		return this.variableNames;
	}

	/**
	 * The literal text before the first expression, to narrow down candidate templates
	 * quickly.
	 * @return the literal prefix, or the whole template if it has no expression
	 */
	public String getLiteralPrefix() {
		return this.literalPrefix;
	}

	/**
	 * Matches a concrete URI against this template, to find the values of its variables.
	 * @param uri the URI to match
	 * @return the percent-decoded values by variable name (query variables that are
	 * absent from the URI are missing), or {@code null} if the URI does not match
	 */
	public @Nullable Map<String, String> match(String uri) {
		int length = uri.length();
		int count = this.parts.size();
		// matchesFrom[k][pos]: whether parts k.. (and the query) match uri[pos..]
		// exactly.
		// Computing it backwards keeps matching linear where a backtracking regex could
		// take exponential time on URIs with many slashes.
		boolean[][] matchesFrom = new boolean[count + 1][];
		matchesFrom[count] = queryStarts(uri);
		for (int k = count - 1; k >= 0; k--) {
			matchesFrom[k] = matchesFrom(this.parts.get(k), uri, matchesFrom[k + 1]);
		}
		if (!matchesFrom[0][0]) {
			return null;
		}
		Map<String, String> values = new LinkedHashMap<>();
		int position = 0;
		for (int k = 0; k < count; k++) {
			Part part = this.parts.get(k);
			if (part instanceof Literal literal) {
				position += literal.text().length();
			}
			else if (part instanceof Expression expression) {
				int end = longestSpan(expression, uri, position, matchesFrom[k + 1]);
				String value = percentDecode(uri.substring(position, end));
				if (value == null) {
					return null;
				}
				values.put(expression.names().get(0), value);
				position = end;
			}
		}
		if (this.query != null && position < length) {
			Map<String, String> parameters = parseQuery(uri.substring(position + 1), this.query.names());
			if (parameters == null) {
				return null;
			}
			for (String name : this.query.names()) {
				String value = parameters.get(name);
				if (value != null) {
					values.put(name, value);
				}
			}
		}
		return values;
	}

	/**
	 * Expands this template with values, to build a concrete URI.
	 * @param values the values by variable name, turned into text with
	 * {@link String#valueOf(Object)}
	 * @return the URI
	 * @throws IllegalArgumentException if a simple or reserved variable has no value;
	 * query variables without a value are left out
	 */
	public String expand(Map<String, ?> values) {
		StringBuilder uri = new StringBuilder(this.template.length() + 16);
		for (Part part : this.parts) {
			if (part instanceof Literal literal) {
				uri.append(literal.text());
			}
			else if (part instanceof Expression expression) {
				String name = expression.names().get(0);
				Object value = values.get(name);
				if (value == null) {
					throw new IllegalArgumentException(
							"No value for variable '" + name + "' of URI template \"" + this.template + "\"");
				}
				encode(String.valueOf(value), expression.operator() == Operator.RESERVED, uri);
			}
		}
		if (this.query != null) {
			char separator = (this.query.operator() == Operator.QUERY) ? '?' : '&';
			for (String name : this.query.names()) {
				Object value = values.get(name);
				if (value != null) {
					uri.append(separator).append(name).append('=');
					encode(String.valueOf(value), false, uri);
					separator = '&';
				}
			}
		}
		return uri.toString();
	}

	/**
	 * Where the query expression may start so that it matches the rest of the URI: the
	 * end of the URI always (no query), otherwise only the first {@code ?} for
	 * {@code {?...}}, or one of the last {@code &} for {@code {&...}} since each declared
	 * variable may appear only once.
	 */
	private boolean[] queryStarts(String uri) {
		int length = uri.length();
		boolean[] starts = new boolean[length + 1];
		starts[length] = true;
		Expression expression = this.query;
		if (expression == null) {
			return starts;
		}
		List<String> names = expression.names();
		if (expression.operator() == Operator.QUERY) {
			int start = uri.indexOf('?');
			if (start >= 0 && parseQuery(uri.substring(start + 1), names) != null) {
				starts[start] = true;
			}
			return starts;
		}
		int remaining = names.size();
		for (int start = uri.lastIndexOf('&'); start >= 0 && remaining > 0; start = uri.lastIndexOf('&', start - 1)) {
			if (parseQuery(uri.substring(start + 1), names) != null) {
				starts[start] = true;
			}
			remaining--;
		}
		return starts;
	}

	private static boolean[] matchesFrom(Part part, String uri, boolean[] next) {
		int length = uri.length();
		boolean[] matches = new boolean[length + 1];
		if (part instanceof Literal literal) {
			String text = literal.text();
			for (int position = 0; position + text.length() <= length; position++) {
				matches[position] = next[position + text.length()] && uri.startsWith(text, position);
			}
		}
		else if (part instanceof Expression expression) {
			// A non-empty span from here either ends after this character or goes on.
			for (int position = length - 1; position >= 0; position--) {
				matches[position] = expression.accepts(uri.charAt(position))
						&& (next[position + 1] || matches[position + 1]);
			}
		}
		return matches;
	}

	private static int longestSpan(Expression expression, String uri, int start, boolean[] next) {
		int end = -1;
		for (int position = start; position < uri.length() && expression.accepts(uri.charAt(position)); position++) {
			if (next[position + 1]) {
				end = position + 1;
			}
		}
		return end;
	}

	/**
	 * Parses the {@code key=value} pairs after the {@code ?} or {@code &} that starts the
	 * query expression.
	 * @return the decoded values by name, or {@code null} if a key is not declared or
	 * repeated, a pair has no {@code =}, or a value is badly encoded
	 */
	private static @Nullable Map<String, String> parseQuery(String query, List<String> names) {
		Map<String, String> parameters = new HashMap<>();
		for (String pair : query.split("&", -1)) {
			int equals = pair.indexOf('=');
			if (equals < 0) {
				return null;
			}
			String name = pair.substring(0, equals);
			String rawValue = pair.substring(equals + 1);
			if (!names.contains(name) || parameters.containsKey(name) || rawValue.indexOf('#') >= 0) {
				return null;
			}
			String value = percentDecode(rawValue);
			if (value == null) {
				return null;
			}
			parameters.put(name, value);
		}
		return parameters;
	}

	/**
	 * Percent-decodes a value as UTF-8, keeping other characters (a {@code +} too) as
	 * they are.
	 * @param value the encoded value
	 * @return the decoded value, or {@code null} if a triplet is incomplete or not hex,
	 * or the bytes are not valid UTF-8
	 */
	public static @Nullable String percentDecode(String value) {
		if (value.indexOf('%') < 0) {
			return value;
		}
		StringBuilder decoded = new StringBuilder(value.length());
		byte[] bytes = new byte[value.length() / 3];
		int index = 0;
		while (index < value.length()) {
			char character = value.charAt(index);
			if (character != '%') {
				decoded.append(character);
				index++;
				continue;
			}
			// Decode a whole run of triplets at once, as one character may span several.
			int count = 0;
			while (index < value.length() && value.charAt(index) == '%') {
				if (index + 2 >= value.length()) {
					return null;
				}
				int high = hexValue(value.charAt(index + 1));
				int low = hexValue(value.charAt(index + 2));
				if (high < 0 || low < 0) {
					return null;
				}
				bytes[count++] = (byte) ((high << 4) | low);
				index += 3;
			}
			try {
				decoded.append(StandardCharsets.UTF_8.newDecoder()
					.onMalformedInput(CodingErrorAction.REPORT)
					.onUnmappableCharacter(CodingErrorAction.REPORT)
					.decode(ByteBuffer.wrap(bytes, 0, count)));
			}
			catch (CharacterCodingException ex) {
				return null;
			}
		}
		return decoded.toString();
	}

	private static void encode(String value, boolean reserved, StringBuilder uri) {
		int index = 0;
		while (index < value.length()) {
			char character = value.charAt(index);
			if (isUnreserved(character) || (reserved && RESERVED_CHARACTERS.indexOf(character) >= 0)) {
				uri.append(character);
				index++;
			}
			else if (reserved && character == '%' && index + 2 < value.length()
					&& hexValue(value.charAt(index + 1)) >= 0 && hexValue(value.charAt(index + 2)) >= 0) {
				uri.append(value, index, index + 3);
				index += 3;
			}
			else {
				int end = index + Character.charCount(value.codePointAt(index));
				for (byte octet : value.substring(index, end).getBytes(StandardCharsets.UTF_8)) {
					uri.append('%').append(HEX_DIGITS[(octet >> 4) & 0xF]).append(HEX_DIGITS[octet & 0xF]);
				}
				index = end;
			}
		}
	}

	private static boolean isUnreserved(char character) {
		return (character >= 'A' && character <= 'Z') || (character >= 'a' && character <= 'z')
				|| (character >= '0' && character <= '9') || character == '-' || character == '.' || character == '_'
				|| character == '~';
	}

	private static int hexValue(char character) {
		if (character >= '0' && character <= '9') {
			return character - '0';
		}
		if (character >= 'A' && character <= 'F') {
			return character - 'A' + 10;
		}
		if (character >= 'a' && character <= 'f') {
			return character - 'a' + 10;
		}
		return -1;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		return (other instanceof UriTemplate that) && this.template.equals(that.template);
	}

	@Override
	public int hashCode() {
		return this.template.hashCode();
	}

	@Override
	public String toString() {
		return this.template;
	}

	private enum Operator {

		SIMPLE(""), RESERVED("+"), QUERY("?"), CONTINUATION("&");

		private final String prefix;

		Operator(String prefix) {
			this.prefix = prefix;
		}

		boolean isQuery() {
			return this == QUERY || this == CONTINUATION;
		}

	}

	private sealed interface Part permits Literal, Expression {

	}

	private record Literal(String text) implements Part {

	}

	/**
	 * One expression of the template.
	 *
	 * @param operator the operator
	 * @param names the variable names
	 * @param text the expression text, braces included
	 * @param index where it starts in the template
	 * @param inQuery whether it follows a literal {@code ?}, so {@code &} ends its value
	 */
	private record Expression(Operator operator, List<String> names, String text, int index,
			boolean inQuery) implements Part {

		boolean accepts(char character) {
			if (character == '?' || character == '#' || (this.inQuery && character == '&')) {
				return false;
			}
			return this.operator == Operator.RESERVED || character != '/';
		}

	}

	/**
	 * Splits a template into parts, checking everything that could make it ambiguous or
	 * unsupported.
	 */
	private static final class Parser {

		private final String template;

		private final List<Part> parts = new ArrayList<>();

		private final List<String> names = new ArrayList<>();

		private boolean literalQuery;

		Parser(String template) {
			this.template = template;
		}

		List<Part> parse() {
			int literalStart = 0;
			int index = 0;
			while (index < this.template.length()) {
				char character = this.template.charAt(index);
				if (character == '}') {
					throw error("stray '}' at index " + index + " without a matching '{'");
				}
				if (character != '{') {
					index++;
					continue;
				}
				addLiteral(literalStart, index);
				int close = this.template.indexOf('}', index + 1);
				int nextOpen = this.template.indexOf('{', index + 1);
				if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
					throw error("unclosed '{' at index " + index);
				}
				addExpression(parseExpression(index, close));
				index = close + 1;
				literalStart = index;
			}
			addLiteral(literalStart, this.template.length());
			return this.parts;
		}

		private void addLiteral(int start, int end) {
			if (start == end) {
				return;
			}
			if (lastPart() instanceof Expression previous && previous.operator().isQuery()) {
				throw error("query expression '" + previous.text() + "' at index " + previous.index()
						+ " is not last: literal text follows it at index " + start
						+ ", but query expressions must end the template");
			}
			String text = this.template.substring(start, end);
			this.literalQuery |= text.indexOf('?') >= 0;
			this.parts.add(new Literal(text));
		}

		private void addExpression(Expression expression) {
			@Nullable Part last = lastPart();
			if (last instanceof Expression previous) {
				if (previous.operator().isQuery()) {
					if (expression.operator().isQuery()) {
						throw error("query expression '" + previous.text() + "' at index " + previous.index()
								+ " is not last: '" + expression.text() + "' follows it at index " + expression.index()
								+ ", but only one query expression may end the template");
					}
					throw error("expression '" + expression.text() + "' at index " + expression.index()
							+ " follows the query expression '" + previous.text()
							+ "', but query expressions must end the template");
				}
				if (!expression.operator().isQuery()) {
					throw error("expressions '" + previous.text() + "' and '" + expression.text() + "' at index "
							+ expression.index() + " are adjacent, so a URI could not be split between them; "
							+ "put literal text between them");
				}
			}
			if (expression.operator() == Operator.QUERY && this.literalQuery) {
				throw error("query expression '" + expression.text() + "' at index " + expression.index()
						+ " follows a literal '?'; use '{&...}' to continue a literal query");
			}
			if (expression.operator() == Operator.CONTINUATION && !this.literalQuery) {
				throw error("query continuation '" + expression.text() + "' at index " + expression.index()
						+ " must follow a literal query such as '?a=1'; use '{?...}' to start a query");
			}
			for (String name : expression.names()) {
				if (this.names.contains(name)) {
					throw error("variable '" + name + "' is used more than once (again at index " + expression.index()
							+ ")");
				}
				this.names.add(name);
			}
			this.parts.add(expression);
		}

		private Expression parseExpression(int open, int close) {
			String text = this.template.substring(open, close + 1);
			String body = this.template.substring(open + 1, close);
			if (body.isEmpty()) {
				throw error("empty expression '{}' at index " + open);
			}
			char first = body.charAt(0);
			if (UNSUPPORTED_OPERATORS.indexOf(first) >= 0) {
				throw error("unsupported operator '" + first + "' in expression '" + text + "' at index " + open
						+ "; supported are '{var}', '{+var}', '{?var,...}' and '{&var,...}'");
			}
			Operator operator = Operator.SIMPLE;
			for (Operator candidate : Operator.values()) {
				if (!candidate.prefix.isEmpty() && body.startsWith(candidate.prefix)) {
					operator = candidate;
				}
			}
			String variables = body.substring(operator.prefix.length());
			if (variables.isEmpty()) {
				throw error("expression '" + text + "' at index " + open + " has no variable name");
			}
			List<String> names = List.of(variables.split(",", -1));
			for (String name : names) {
				checkName(name, text, open);
			}
			if (names.size() > 1 && !operator.isQuery()) {
				throw error("expression '" + text + "' at index " + open + " has " + names.size()
						+ " variables, but '{var}' and '{+var}' take exactly one");
			}
			return new Expression(operator, names, text, open, this.literalQuery);
		}

		private void checkName(String name, String text, int open) {
			String where = " in expression '" + text + "' at index " + open;
			if (name.isEmpty()) {
				throw error("empty variable name" + where);
			}
			if (name.endsWith("*")) {
				throw error("explode modifier '*' is not supported" + where);
			}
			int colon = name.indexOf(':');
			if (colon >= 0) {
				throw error("prefix modifier '" + name.substring(colon) + "' is not supported" + where);
			}
			if (!VARIABLE_NAME.matcher(name).matches()) {
				throw error("invalid variable name '" + name + "'" + where
						+ "; names use A-Z, a-z, 0-9 and '_', with single dots inside");
			}
		}

		private @Nullable Part lastPart() {
			return this.parts.isEmpty() ? null : this.parts.get(this.parts.size() - 1);
		}

		private IllegalArgumentException error(String problem) {
			return new IllegalArgumentException("Invalid URI template \"" + this.template + "\": " + problem);
		}

	}

}
