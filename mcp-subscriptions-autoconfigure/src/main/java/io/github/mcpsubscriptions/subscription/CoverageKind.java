package io.github.mcpsubscriptions.subscription;

/**
 * The kind of a subscription URI, as decided by {@link CoverageRules#kindOf(String)}: a
 * label for metrics and diagnostics.
 *
 * @since 0.1.0
 * @see CoverageRules
 */
public enum CoverageKind {

	/**
	 * A plain URI that does not end with {@code /}, such as {@code catalog://products/7}.
	 * It covers the same URI and, at a path-segment boundary, its descendants.
	 */
	EXACT,

	/**
	 * A plain URI that ends with {@code /}, such as {@code file:///logs/}: a directory
	 * that covers everything below it.
	 */
	PREFIX,

	/**
	 * An RFC 6570 URI template, such as {@code catalog://products/{id}}.
	 */
	TEMPLATE,

	/**
	 * A base URI with a {@code pattern} query parameter holding a glob, such as
	 * {@code file:///logs?pattern=*.error.log}.
	 */
	PATTERN

}
