package io.github.mcpsubscriptions.subscription;

import java.util.Collection;
import java.util.Locale;

import io.github.mcpsubscriptions.resource.UriTemplate;
import org.jspecify.annotations.Nullable;

/**
 * The default rules that decide whether a subscription covers a changed resource, as
 * plain functions: the reference that {@link SubscriptionIndex} implements with indexes,
 * and a building block for a {@link SubscriptionMatcher} that extends them.
 * <p>
 * A subscription URI {@code S} covers a changed URI {@code U} as follows, where the
 * <em>path part</em> of a URI is the text before its first {@code ?} or {@code #}:
 * <ul>
 * <li><b>Template</b> ({@code S} contains <code>{</code>): the RFC 6570
 * {@link UriTemplate} {@code S} matches {@code U}, so
 * <code>catalog://products/{id}</code> covers {@code catalog://products/7} but not
 * {@code catalog://products/7/reviews}.</li>
 * <li><b>Pattern</b> ({@code S} has a {@code pattern} query parameter, such as
 * {@code file:///logs?pattern=*.error.log}): with the base {@code B} being {@code S}
 * before its {@code ?} with a trailing {@code /} ensured, the path part of {@code U}
 * starts with {@code B} and the non-empty rest matches the percent-decoded glob. In the
 * glob, {@code *} matches any run of characters except {@code /}, {@code **} any run
 * including {@code /} ({@code **}{@code /} also matches no directory at all), {@code ?}
 * one character except {@code /}, and everything else is literal. Other query parameters
 * of {@code S} are ignored.</li>
 * <li><b>Plain</b> (otherwise): {@code U} equals {@code S}; or the path part of {@code U}
 * starts with {@code S} followed by {@code /}, so {@code catalog://products} covers
 * {@code catalog://products/7/reviews} but not {@code catalog://products-archive/7}; or
 * {@code S} ends with {@code /} and the path part of {@code U} starts with {@code S}, so
 * {@code file:///logs/} covers {@code file:///logs/x/y.log}. A plain {@code S} with a
 * query covers only itself.</li>
 * </ul>
 *
 * @since 0.1.0
 */
public final class CoverageRules {

	/*
	 * Templates and globs are matched against every change their scheme sees, on the
	 * dispatcher's one thread: what a single subscription may cost is capped.
	 */

	/** The most characters of a template subscription. */
	public static final int MAX_TEMPLATE_LENGTH = 1024;

	/** The most characters of a subscription's (decoded) {@code pattern} glob. */
	public static final int MAX_GLOB_LENGTH = 256;

	/** The most variables of a template subscription, or wildcards of a glob. */
	public static final int MAX_WILDCARDS = 32;

	private static final String PATTERN_PARAMETER = "pattern";

	private CoverageRules() {
	}

	/**
	 * Whether a subscription to {@code subscribedUri} covers a change of
	 * {@code changedUri}, by the default rules and without an index.
	 * @param subscribedUri the URI the client subscribed to
	 * @param changedUri the URI of the resource that changed
	 * @return whether the subscription covers the change
	 * @throws IllegalArgumentException if {@code subscribedUri} is not valid, as checked
	 * by {@link #validate(String)}
	 */
	public static boolean covers(String subscribedUri, String changedUri) {
		if (UriTemplate.isTemplate(subscribedUri) || hasPatternParameter(subscribedUri)) {
			return compile(subscribedUri).covers(changedUri);
		}
		checkNotEmpty(subscribedUri);
		return coversPlain(subscribedUri, changedUri);
	}

	/**
	 * The more specific of two subscriptions that both cover a changed URI: the URI
	 * itself, then a template, then a pattern, then an ancestor or directory (the longer
	 * the closer); equal ranks by the text, so that the choice is stable.
	 * @param changedUri the changed URI
	 * @param first one covering subscription
	 * @param second another
	 * @return the more specific one
	 */
	public static String moreSpecific(String changedUri, String first, String second) {
		int byRank = Integer.compare(specificityRank(changedUri, first), specificityRank(changedUri, second));
		if (byRank != 0) {
			return (byRank < 0) ? first : second;
		}
		if (first.length() != second.length()) {
			return (first.length() > second.length()) ? first : second;
		}
		return (first.compareTo(second) <= 0) ? first : second;
	}

	private static int specificityRank(String changedUri, String subscribedUri) {
		if (subscribedUri.equals(changedUri)) {
			return 0;
		}
		return switch (kindOf(subscribedUri)) {
			case TEMPLATE -> 1;
			case PATTERN -> 2;
			case EXACT, PREFIX -> 3;
		};
	}

	/**
	 * The kind of a subscription URI, from its syntax alone, to label it in metrics.
	 * @param subscribedUri the URI the client subscribed to
	 * @return {@link CoverageKind#TEMPLATE} if it contains <code>{</code>, else
	 * {@link CoverageKind#PATTERN} if it has a {@code pattern} query parameter, else
	 * {@link CoverageKind#PREFIX} if it ends with {@code /}, else
	 * {@link CoverageKind#EXACT}
	 */
	public static CoverageKind kindOf(String subscribedUri) {
		if (UriTemplate.isTemplate(subscribedUri)) {
			return CoverageKind.TEMPLATE;
		}
		if (hasPatternParameter(subscribedUri)) {
			return CoverageKind.PATTERN;
		}
		return subscribedUri.endsWith("/") ? CoverageKind.PREFIX : CoverageKind.EXACT;
	}

	/**
	 * The literal text every URI a subscription covers starts with: a template's literal
	 * prefix up to its last {@code /}, a pattern's base (with a trailing {@code /}), or a
	 * plain subscription before any query.
	 * @param subscribedUri the URI the client subscribed to
	 * @return the base
	 * @throws IllegalArgumentException if the URI is not valid, as checked by
	 * {@link #validate(String)}
	 */
	public static String base(String subscribedUri) {
		Rule rule = compile(subscribedUri);
		UriTemplate template = rule.template;
		if (template != null) {
			String prefix = template.getLiteralPrefix();
			return prefix.substring(0, prefix.lastIndexOf('/') + 1);
		}
		String groupKey = rule.groupKey;
		if (groupKey != null) {
			return groupKey;
		}
		int query = subscribedUri.indexOf('?');
		return (query >= 0) ? subscribedUri.substring(0, query) : subscribedUri;
	}

	/**
	 * Whether a subscription may cover a resource of one of some URI templates: its base
	 * and a template's literal prefix are one a prefix of the other. Errs towards yes,
	 * for telling subscriptions to resync after a source of those resources lost changes.
	 * @param subscribedUri the URI the client subscribed to
	 * @param templates the URI templates (or plain URIs)
	 * @return whether the subscription may cover one of their resources
	 */
	public static boolean mayOverlap(String subscribedUri, Collection<String> templates) {
		String base;
		try {
			base = base(subscribedUri);
		}
		catch (IllegalArgumentException ex) {
			// A subscription a custom matcher took: it may cover anything.
			return true;
		}
		for (String template : templates) {
			String prefix = UriTemplate.isTemplate(template) ? UriTemplate.parse(template).getLiteralPrefix()
					: template;
			if (prefix.startsWith(base) || base.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Checks that a subscription URI can be used with the default rules, to refuse a
	 * subscription with a clear message.
	 * @param subscribedUri the URI the client subscribed to
	 * @throws IllegalArgumentException if the URI is empty, is an invalid URI template,
	 * or has a {@code pattern} parameter that is repeated, empty, badly percent-encoded
	 * or not a valid glob
	 */
	public static void validate(String subscribedUri) {
		compile(subscribedUri);
	}

	/**
	 * Compiles a subscription URI once, so that checking changes against it does not
	 * parse it again.
	 */
	static Rule compile(String subscribedUri) {
		checkNotEmpty(subscribedUri);
		if (UriTemplate.isTemplate(subscribedUri)) {
			if (subscribedUri.length() > MAX_TEMPLATE_LENGTH) {
				throw invalid(subscribedUri,
						"a template subscription may have at most " + MAX_TEMPLATE_LENGTH + " characters");
			}
			UriTemplate template = UriTemplate.parse(subscribedUri);
			if (template.getVariableNames().size() > MAX_WILDCARDS) {
				throw invalid(subscribedUri,
						"a template subscription may have at most " + MAX_WILDCARDS + " variables");
			}
			return new Rule(subscribedUri, CoverageKind.TEMPLATE, templateGroupKey(template), template, null);
		}
		String glob = patternGlob(subscribedUri);
		if (glob != null) {
			if (glob.length() > MAX_GLOB_LENGTH) {
				throw invalid(subscribedUri, "its pattern may have at most " + MAX_GLOB_LENGTH + " characters");
			}
			GlobPattern pattern;
			try {
				pattern = GlobPattern.compile(glob);
				if (pattern.wildcards() > MAX_WILDCARDS) {
					throw new IllegalArgumentException("its pattern may have at most " + MAX_WILDCARDS + " wildcards");
				}
			}
			catch (IllegalArgumentException ex) {
				throw invalid(subscribedUri, ex.getMessage());
			}
			String base = subscribedUri.substring(0, subscribedUri.indexOf('?'));
			return new Rule(subscribedUri, CoverageKind.PATTERN, base.endsWith("/") ? base : base + "/", null, pattern);
		}
		return new Rule(subscribedUri, kindOf(subscribedUri), null, null, null);
	}

	/**
	 * Where the path part of a URI ends: at its first {@code ?} or {@code #}, or at its
	 * end.
	 */
	static int pathEnd(String uri) {
		for (int index = 0; index < uri.length(); index++) {
			char character = uri.charAt(index);
			if (character == '?' || character == '#') {
				return index;
			}
		}
		return uri.length();
	}

	/**
	 * The key under which templates without a {@code /} in their literal prefix are
	 * grouped: the URI up to and including its first {@code :}, if that comes before any
	 * {@code /}, {@code ?} or {@code #}.
	 * @return the key, or {@code null} if the URI has no such colon
	 */
	static @Nullable String schemeKey(String uri) {
		for (int index = 0; index < uri.length(); index++) {
			char character = uri.charAt(index);
			if (character == ':') {
				return uri.substring(0, index + 1);
			}
			if (character == '/' || character == '?' || character == '#') {
				return null;
			}
		}
		return null;
	}

	/**
	 * The scheme of a URI, to find the {@link SubscriptionMatcher} in charge of it.
	 * @return the scheme in lower case, or {@code null} if the URI does not start with a
	 * valid scheme and a colon
	 */
	static @Nullable String schemeOf(String uri) {
		int colon = uri.indexOf(':');
		if (colon <= 0 || !isAsciiLetter(uri.charAt(0))) {
			return null;
		}
		for (int index = 1; index < colon; index++) {
			char character = uri.charAt(index);
			if (!isAsciiLetter(character) && !(character >= '0' && character <= '9') && character != '+'
					&& character != '-' && character != '.') {
				return null;
			}
		}
		return uri.substring(0, colon).toLowerCase(Locale.ROOT);
	}

	private static boolean isAsciiLetter(char character) {
		return (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z');
	}

	private static boolean coversPlain(String subscribedUri, String changedUri) {
		if (changedUri.equals(subscribedUri)) {
			return true;
		}
		int length = subscribedUri.length();
		int pathEnd = pathEnd(changedUri);
		if (length < pathEnd && changedUri.startsWith(subscribedUri) && changedUri.charAt(length) == '/') {
			return true;
		}
		return subscribedUri.endsWith("/") && length <= pathEnd && changedUri.startsWith(subscribedUri);
	}

	/**
	 * Groups a template under the last {@code /}-terminated prefix of its literal
	 * prefix's path part, since every URI it matches starts with that; failing that,
	 * under its scheme key, or under the empty key that every change looks up.
	 */
	private static String templateGroupKey(UriTemplate template) {
		String prefix = template.getLiteralPrefix();
		int pathEnd = pathEnd(prefix);
		int slash = prefix.lastIndexOf('/', pathEnd - 1);
		if (slash >= 0) {
			return prefix.substring(0, slash + 1);
		}
		String schemeKey = schemeKey(prefix.substring(0, pathEnd));
		return (schemeKey != null) ? schemeKey : "";
	}

	private static void checkNotEmpty(String subscribedUri) {
		if (subscribedUri.isEmpty()) {
			throw new IllegalArgumentException("Invalid subscription URI: it is empty");
		}
	}

	private static IllegalArgumentException invalid(String subscribedUri, @Nullable String problem) {
		return new IllegalArgumentException("Invalid subscription URI \"" + subscribedUri + "\": " + problem);
	}

	/**
	 * The query of a URI: the text after its first {@code ?} up to any {@code #}, or
	 * {@code null} if it has none (a {@code ?} after a {@code #} is part of the
	 * fragment).
	 */
	private static @Nullable String query(String uri) {
		int question = uri.indexOf('?');
		if (question < 0) {
			return null;
		}
		int hash = uri.indexOf('#');
		if (hash >= 0 && hash < question) {
			return null;
		}
		return uri.substring(question + 1, (hash >= 0) ? hash : uri.length());
	}

	private static boolean hasPatternParameter(String uri) {
		String query = query(uri);
		if (query == null) {
			return false;
		}
		for (String parameter : query.split("&", -1)) {
			if (isPatternParameter(parameter)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isPatternParameter(String parameter) {
		return parameter.startsWith(PATTERN_PARAMETER) && (parameter.length() == PATTERN_PARAMETER.length()
				|| parameter.charAt(PATTERN_PARAMETER.length()) == '=');
	}

	/**
	 * The percent-decoded value of the {@code pattern} query parameter.
	 * @return the glob, or {@code null} if the URI has no {@code pattern} parameter
	 * @throws IllegalArgumentException if the parameter is repeated, empty or badly
	 * encoded
	 */
	private static @Nullable String patternGlob(String uri) {
		String query = query(uri);
		if (query == null) {
			return null;
		}
		String raw = null;
		for (String parameter : query.split("&", -1)) {
			if (isPatternParameter(parameter)) {
				if (raw != null) {
					throw invalid(uri, "it has more than one '" + PATTERN_PARAMETER + "' query parameter");
				}
				raw = parameter.substring(Math.min(parameter.length(), PATTERN_PARAMETER.length() + 1));
			}
		}
		if (raw == null) {
			return null;
		}
		if (raw.isEmpty()) {
			throw invalid(uri, "its '" + PATTERN_PARAMETER + "' query parameter is empty");
		}
		String glob = UriTemplate.percentDecode(raw);
		if (glob == null) {
			throw invalid(uri, "its '" + PATTERN_PARAMETER + "' query parameter \"" + raw
					+ "\" is not validly percent-encoded UTF-8");
		}
		return glob;
	}

	/**
	 * A subscription URI compiled once: its kind, how to check a change against it, and,
	 * for templates and patterns, the key of the index group it belongs to.
	 */
	static final class Rule {

		private final String uri;

		private final CoverageKind kind;

		/** The group key of a template, or the base of a pattern; null for plain URIs. */
		private final @Nullable String groupKey;

		private final @Nullable UriTemplate template;

		private final @Nullable GlobPattern glob;

		private Rule(String uri, CoverageKind kind, @Nullable String groupKey, @Nullable UriTemplate template,
				@Nullable GlobPattern glob) {
			this.uri = uri;
			this.kind = kind;
			this.groupKey = groupKey;
			this.template = template;
			this.glob = glob;
		}

		CoverageKind kind() {
			return this.kind;
		}

		/**
		 * The key under which the index groups a template or pattern: every URI it covers
		 * has this key among its {@code /}-terminated path prefixes, its scheme key, or
		 * the empty key.
		 * @return the key, or {@code null} for a plain URI, indexed by itself
		 */
		@Nullable String groupKey() {
			return this.groupKey;
		}

		boolean covers(String changedUri) {
			UriTemplate template = this.template;
			if (template != null) {
				return template.match(changedUri) != null;
			}
			GlobPattern glob = this.glob;
			String base = this.groupKey;
			if (glob != null && base != null) {
				int pathEnd = pathEnd(changedUri);
				return base.length() < pathEnd && changedUri.startsWith(base)
						&& glob.matches(changedUri, base.length(), pathEnd);
			}
			return coversPlain(this.uri, changedUri);
		}

		@Override
		public String toString() {
			return this.uri;
		}

	}

}
