package io.github.mcpsubscriptions.subscription;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CoverageRulesTests {

	@ParameterizedTest
	@CsvSource({ "catalog://products/7, catalog://products/7, true",
			"catalog://products/7, catalog://products/8, false", "catalog://products/7, catalog://products/70, false",
			"catalog://products/7, catalog://products, false", "catalog://products/7, catalog://products/, false",
			"catalog://products/7, CATALOG://products/7, false" })
	void plainCoversItself(String subscribed, String changed, boolean covered) {
		assertThat(CoverageRules.covers(subscribed, changed)).isEqualTo(covered);
	}

	@ParameterizedTest
	@CsvSource({ "catalog://products, catalog://products/7, true",
			"catalog://products, catalog://products/7/reviews, true",
			"catalog://products, catalog://products-archive/7, false", "catalog://products, catalog://productsX, false",
			"catalog://products, catalog://product, false", "catalog://products, catalog://, false",
			"catalog://products/7, catalog://products/7/reviews, true",
			"catalog://products/7, catalog://products/7-old, false",
			"catalog://products, catalog://products/7?format=json, true",
			"catalog://products, catalog://products/7#top, true", "catalog://products, catalog://products?x=/y, false",
			"catalog://products, catalog://products#/y, false" })
	void plainCoversDescendantsAtSegmentBoundary(String subscribed, String changed, boolean covered) {
		assertThat(CoverageRules.covers(subscribed, changed)).isEqualTo(covered);
	}

	@ParameterizedTest
	@CsvSource({ "file:///logs/, file:///logs/a.log, true", "file:///logs/, file:///logs/x/y.log, true",
			"file:///logs/, file:///logs/, true", "file:///logs/, file:///logs/?tail=10, true",
			"file:///logs/, file:///logs, false", "file:///logs/, file:///logs-old/a.log, false",
			"file:///logs/, file:///log/a.log, false", "file:///logs/, file:///other/logs/a.log, false",
			"file:///logs/, file:///x?file:///logs/a, false" })
	void trailingSlashCoversDirectoryRecursively(String subscribed, String changed, boolean covered) {
		assertThat(CoverageRules.covers(subscribed, changed)).isEqualTo(covered);
	}

	@ParameterizedTest
	@CsvSource({ "api:///events?type=error, api:///events?type=error, true",
			"api:///events?type=error, api:///events?type=warning, false",
			"api:///events?type=error, api:///events, false",
			"api:///events?type=error, api:///events?type=error/1, false",
			"api:///events?type=error, api:///events?type=error&x=1, false",
			"api:///events?type=error, api:///events/1?type=error, false" })
	void plainWithQueryCoversOnlyItself(String subscribed, String changed, boolean covered) {
		assertThat(CoverageRules.covers(subscribed, changed)).isEqualTo(covered);
	}

	@ParameterizedTest
	@CsvSource({ "catalog://products/{id}, catalog://products/7, true",
			"catalog://products/{id}, catalog://products/12345, true",
			"catalog://products/{id}, catalog://products/7/reviews, false",
			"catalog://products/{id}, catalog://products/, false", "catalog://products/{id}, catalog://products, false",
			"catalog://products/{id}, catalog://orders/7, false",
			"weather://city/{name}{?units}, weather://city/paris?units=metric, true",
			"weather://city/{name}{?units}, weather://city/paris?lang=fr, false",
			"file:///{+path}, file:///a/b/c.txt, true", "file:///{+path}, http:///a, false",
			"{+uri}, anything://at/all, true" })
	void templateCoversWhatItMatches(String subscribed, String changed, boolean covered) {
		assertThat(CoverageRules.covers(subscribed, changed)).isEqualTo(covered);
	}

	@ParameterizedTest
	@CsvSource({
			// '*' stays within a segment, '**' crosses segments
			"file:///logs?pattern=*.error.log, file:///logs/app.error.log, true",
			"file:///logs?pattern=*.error.log, file:///logs/app.info.log, false",
			"file:///logs?pattern=*.error.log, file:///logs/2026/app.error.log, false",
			"file:///logs?pattern=**.error.log, file:///logs/2026/app.error.log, true",
			"file:///logs/?pattern=**/*.log, file:///logs/a.log, true",
			"file:///logs/?pattern=**/*.log, file:///logs/x/y/a.log, true",
			"file:///logs/?pattern=**/*.log, file:///logs/x/y/a.txt, false",
			"file:///logs/?pattern=a/**/b, file:///logs/a/b, true",
			"file:///logs/?pattern=a/**/b, file:///logs/a/x/y/b, true",
			"file:///logs/?pattern=a/**/b, file:///logs/a/xb, false",
			"file:///logs?pattern=**, file:///logs/a/b/c, true",
			// '?' is one character, not a slash
			"file:///logs?pattern=app?.log, file:///logs/app1.log, true",
			"file:///logs?pattern=app?.log, file:///logs/app.log, false",
			"file:///logs?pattern=app?.log, file:///logs/app12.log, false",
			"file:///logs?pattern=a?b, file:///logs/a/b, false",
			// the base, with or without a trailing slash, is a directory
			"file:///logs/?pattern=*.error.log, file:///logs/app.error.log, true",
			"file:///logs?pattern=*, file:///logs-old/app.log, false",
			"file:///logs?pattern=*, file:///logsapp.log, false", "file:///logs?pattern=*, file:///logs, false",
			"file:///logs?pattern=*, file:///logs/, false", "file:///logs?pattern=*, file:///other/a.log, false",
			// the glob is matched against the path part only
			"file:///logs?pattern=*.log, file:///logs/a.log?v=2, true",
			"file:///logs?pattern=*.log, file:///logs/a?.log, false",
			// other parameters are ignored, the glob is percent-decoded, the rest is
			// literal
			"file:///logs?tail=10&pattern=*.log&x, file:///logs/a.log, true",
			"file:///logs?pattern=%2A.log, file:///logs/a.log, true",
			"file:///logs?pattern=[a].log, file:///logs/[a].log, true",
			"file:///logs?pattern=[a].log, file:///logs/a.log, false",
			"file:///logs?pattern=a+b, file:///logs/a+b, true",
			"file:///logs?pattern=A.log, file:///logs/a.log, false" })
	void patternCoversWhatItsGlobMatchesBelowItsBase(String subscribed, String changed, boolean covered) {
		assertThat(CoverageRules.covers(subscribed, changed)).isEqualTo(covered);
	}

	@ParameterizedTest
	@CsvSource(delimiter = ' ',
			value = { "file:///logs/a.log file:///logs/a.log file:///logs/{name} file:///logs/a.log",
					"file:///logs/a.log file:///logs/{name} file:///logs?pattern=*.log file:///logs/{name}",
					"file:///logs/a.log file:///logs?pattern=*.log file:///logs/ file:///logs?pattern=*.log",
					"file:///logs/a/b.log file:///logs/ file:///logs/a/ file:///logs/a/",
					"file:///logs/a/b.log file:///logs file:///logs/a file:///logs/a",
					"file:///logs/a.log file:///{+path} file:///logs/{name} file:///logs/{name}" })
	void moreSpecificPrefersTheUriThenTemplatesThenPatternsThenTheClosestAncestor(String changed, String first,
			String second, String expected) {
		assertThat(CoverageRules.moreSpecific(changed, first, second)).isEqualTo(expected);
		assertThat(CoverageRules.moreSpecific(changed, second, first)).as("either order").isEqualTo(expected);
	}

	@Test
	void patternGlobDecodesMultiByteCharacters() {
		assertThat(CoverageRules.covers("file:///docs?pattern=%C3%A9t%C3%A9*", "file:///docs/été.md")).isTrue();
		assertThat(CoverageRules.covers("file:///docs?pattern=?t?.md", "file:///docs/été.md")).isTrue();
	}

	@Test
	void patternGlobOfManyStarsIsNotExponential() {
		String subscribed = "file:///x?pattern=" + "*a".repeat(30) + "b";
		String changed = "file:///x/" + "a".repeat(5000);
		assertThat(CoverageRules.covers(subscribed, changed)).isFalse();
	}

	@ParameterizedTest
	@CsvSource({ "catalog://products/7, EXACT", "catalog://products, EXACT", "file:///logs/, PREFIX",
			"file:///logs/?tail=1, EXACT", "api:///events?type=error, EXACT", "catalog://products/{id}, TEMPLATE",
			"file:///logs?pattern={x}, TEMPLATE", "file:///logs?pattern=*.log, PATTERN",
			"file:///logs/?x=1&pattern=*, PATTERN", "file:///logs?patterns=*, EXACT", "file:///logs?xpattern=*, EXACT",
			"file:///logs#?pattern=*, EXACT" })
	void kindOf(String subscribed, CoverageKind kind) {
		assertThat(CoverageRules.kindOf(subscribed)).isEqualTo(kind);
	}

	@ParameterizedTest
	@ValueSource(strings = { "catalog://products/7", "file:///logs/", "catalog://products/{id}",
			"file:///logs?pattern=*.log", "file:///logs?pattern=**/a?b*" })
	void validAccepted(String subscribed) {
		CoverageRules.validate(subscribed);
	}

	@Test
	void invalidTemplateRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate("catalog://products/{id"))
			.withMessageContaining("catalog://products/{id")
			.withMessageContaining("unclosed '{'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CoverageRules.covers("catalog://products/{a}{b}", "catalog://products/1"))
			.withMessageContaining("adjacent");
	}

	@Test
	void emptyPatternRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate("file:///logs?pattern="))
			.withMessage("Invalid subscription URI \"file:///logs?pattern=\": its 'pattern' query parameter is empty");
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate("file:///logs?pattern"))
			.withMessageContaining("is empty");
	}

	@Test
	void invalidGlobRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate("file:///logs?pattern=***.log"))
			.withMessageContaining("file:///logs?pattern=***.log")
			.withMessageContaining("run of 3 '*'");
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate("file:///logs?pattern=%2"))
			.withMessageContaining("percent-encoded");
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate("file:///logs?pattern=%zz"))
			.withMessageContaining("percent-encoded");
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate("file:///logs?pattern=%C3"))
			.withMessageContaining("percent-encoded");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CoverageRules.covers("file:///logs?pattern=*&pattern=*.log", "file:///logs/a.log"))
			.withMessageContaining("more than one 'pattern'");
	}

	@Test
	void emptyUriRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate(""))
			.withMessageContaining("empty");
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.covers("", "/a"))
			.withMessageContaining("empty");
	}

	@Test
	void whatOneSubscriptionMayCostIsCapped() {
		String longGlob = "catalog:?pattern=" + "**/".repeat(2700);
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate(longGlob))
			.withMessageContaining("at most 256 characters");
		String manyWildcards = "file:///logs?pattern=" + "?".repeat(CoverageRules.MAX_WILDCARDS + 1);
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate(manyWildcards))
			.withMessageContaining("at most 32 wildcards");
		CoverageRules.validate("file:///logs?pattern=" + "?".repeat(CoverageRules.MAX_WILDCARDS));
		CoverageRules.validate("file:///logs?pattern=" + "a".repeat(CoverageRules.MAX_GLOB_LENGTH - 1) + "*");
		String longTemplate = "catalog://" + "p".repeat(CoverageRules.MAX_TEMPLATE_LENGTH) + "/{id}";
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate(longTemplate))
			.withMessageContaining("at most 1024 characters");
		StringBuilder manyVariables = new StringBuilder("catalog://products");
		for (int i = 0; i <= CoverageRules.MAX_WILDCARDS; i++) {
			manyVariables.append("/{v").append(i).append('}');
		}
		assertThatIllegalArgumentException().isThrownBy(() -> CoverageRules.validate(manyVariables.toString()))
			.withMessageContaining("at most 32 variables");
	}

	@ParameterizedTest
	@CsvSource({ "catalog://products, true", "catalog://products/7, true", "catalog://products/{id}, true",
			"catalog://, true", "catalog://products/?pattern=*.json, true", "catalog://products-archive, false",
			"catalog://products-archive/7, false", "other://things/{id}, false", "file:///logs/?pattern=*.log, false" })
	void aSubscriptionMayOverlapATemplateWhenOneLiteralBaseIsAPrefixOfTheOther(String subscribedUri, boolean overlaps) {
		assertThat(CoverageRules.mayOverlap(subscribedUri, List.of("catalog://products/{id}"))).isEqualTo(overlaps);
	}

}
