package io.github.mcpsubscriptions.resource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link UriTemplate}.
 */
class UriTemplateTests {

	// Parsing and accessors

	@Test
	void parseKeepsTemplateAndVariableNamesInOrder() {
		UriTemplate template = UriTemplate.parse("weather://city/{name}/{+rest}{?units,lang}");
		assertThat(template.getTemplate()).isEqualTo("weather://city/{name}/{+rest}{?units,lang}");
		assertThat(template.getVariableNames()).containsExactly("name", "rest", "units", "lang");
		assertThat(template.getLiteralPrefix()).isEqualTo("weather://city/");
		assertThat(template).hasToString("weather://city/{name}/{+rest}{?units,lang}");
	}

	@Test
	void literalPrefixIsWholeTextWithoutExpressionAndEmptyWhenStartingWithOne() {
		assertThat(UriTemplate.parse("catalog://products").getLiteralPrefix()).isEqualTo("catalog://products");
		assertThat(UriTemplate.parse("catalog://products").getVariableNames()).isEmpty();
		assertThat(UriTemplate.parse("{scheme}://x").getLiteralPrefix()).isEmpty();
	}

	@Test
	void variableNamesMayContainDotsInsideAndAreCaseSensitive() {
		UriTemplate template = UriTemplate.parse("x://{a.b_1}/{A.B}");
		assertThat(template.getVariableNames()).containsExactly("a.b_1", "A.B");
		assertThat(template.match("x://1/2")).containsExactly(Map.entry("a.b_1", "1"), Map.entry("A.B", "2"));
	}

	@Test
	void isTemplateDetectsExpressions() {
		assertThat(UriTemplate.isTemplate("catalog://products/{id}")).isTrue();
		assertThat(UriTemplate.isTemplate("catalog://products/42")).isFalse();
	}

	@Test
	void equalsAndHashCodeUseTemplateText() {
		assertThat(UriTemplate.parse("x://{id}")).isEqualTo(UriTemplate.parse("x://{id}"))
			.hasSameHashCodeAs(UriTemplate.parse("x://{id}"))
			.isNotEqualTo(UriTemplate.parse("x://{name}"));
	}

	// Matching

	@Test
	void matchSimple() {
		UriTemplate template = UriTemplate.parse("catalog://products/{id}");
		assertThat(template.match("catalog://products/42")).containsExactly(Map.entry("id", "42"));
	}

	@Test
	void matchSimpleInSeveralSegments() {
		UriTemplate template = UriTemplate.parse("x://shops/{shop}/items/{item}.json");
		assertThat(template.match("x://shops/s1/items/i.2.json")).containsExactly(Map.entry("shop", "s1"),
				Map.entry("item", "i.2"));
	}

	@Test
	void matchLiteralTemplateWithoutExpression() {
		UriTemplate template = UriTemplate.parse("catalog://products");
		assertThat(template.match("catalog://products")).isEmpty();
		assertThat(template.match("catalog://products/1")).isNull();
	}

	@Test
	void matchReservedWithSlashes() {
		UriTemplate template = UriTemplate.parse("file:///{+path}");
		assertThat(template.match("file:///docs/guide/intro.md"))
			.containsExactly(Map.entry("path", "docs/guide/intro.md"));
	}

	@Test
	void matchReservedFollowedByLiteralAndSimple() {
		UriTemplate template = UriTemplate.parse("repo://{+dir}/{name}");
		assertThat(template.match("repo://a/b/c.txt")).containsExactly(Map.entry("dir", "a/b"),
				Map.entry("name", "c.txt"));
	}

	@Test
	void matchQueryWithNoParameters() {
		UriTemplate template = UriTemplate.parse("weather://city/{name}{?units,lang}");
		assertThat(template.match("weather://city/paris")).containsExactly(Map.entry("name", "paris"));
	}

	@Test
	void matchQueryWithOneParameter() {
		UriTemplate template = UriTemplate.parse("weather://city/{name}{?units,lang}");
		assertThat(template.match("weather://city/paris?lang=fr")).containsOnly(Map.entry("name", "paris"),
				Map.entry("lang", "fr"));
	}

	@Test
	void matchQueryWithTwoParametersInAnyOrder() {
		UriTemplate template = UriTemplate.parse("weather://city/{name}{?units,lang}");
		Map<String, String> expected = Map.of("name", "paris", "units", "metric", "lang", "fr");
		assertThat(template.match("weather://city/paris?units=metric&lang=fr")).isEqualTo(expected);
		assertThat(template.match("weather://city/paris?lang=fr&units=metric")).isEqualTo(expected);
	}

	@Test
	void matchQueryValueIsDecodedButPlusIsKept() {
		UriTemplate template = UriTemplate.parse("search://{?q}");
		assertThat(template.match("search://?q=a+b%20c%26d")).containsExactly(Map.entry("q", "a+b c&d"));
	}

	@Test
	void matchQueryAcceptsEmptyValue() {
		UriTemplate template = UriTemplate.parse("search://all{?q}");
		assertThat(template.match("search://all?q=")).containsExactly(Map.entry("q", ""));
	}

	@Test
	void matchQueryContinuation() {
		UriTemplate template = UriTemplate.parse("search://items?format=json{&page,size}");
		assertThat(template.match("search://items?format=json")).isEmpty();
		assertThat(template.match("search://items?format=json&size=10&page=2"))
			.isEqualTo(Map.of("page", "2", "size", "10"));
		assertThat(template.match("search://items?format=json&page=2")).isEqualTo(Map.of("page", "2"));
	}

	@Test
	void matchQueryContinuationAfterSimpleExpressionInQuery() {
		UriTemplate template = UriTemplate.parse("search://items?format={format}{&page}");
		assertThat(template.match("search://items?format=json&page=2")).containsExactly(Map.entry("format", "json"),
				Map.entry("page", "2"));
		assertThat(template.match("search://items?format=json")).containsExactly(Map.entry("format", "json"));
		assertThat(template.match("search://items?format=json&other=2")).isNull();
	}

	@Test
	void noMatchForExtraSegment() {
		assertThat(UriTemplate.parse("catalog://products/{id}").match("catalog://products/42/reviews")).isNull();
	}

	@Test
	void noMatchForEmptyValue() {
		assertThat(UriTemplate.parse("catalog://products/{id}").match("catalog://products/")).isNull();
		assertThat(UriTemplate.parse("file:///{+path}").match("file:///")).isNull();
	}

	@Test
	void noMatchForUndeclaredQueryKey() {
		UriTemplate template = UriTemplate.parse("weather://city/{name}{?units,lang}");
		assertThat(template.match("weather://city/paris?units=metric&debug=1")).isNull();
		assertThat(template.match("weather://city/paris?Units=metric")).isNull();
	}

	@Test
	void noMatchForRepeatedQueryKey() {
		UriTemplate template = UriTemplate.parse("weather://city/{name}{?units,lang}");
		assertThat(template.match("weather://city/paris?units=metric&units=imperial")).isNull();
	}

	@Test
	void noMatchForQueryPairWithoutEqualsOrEmptyQuery() {
		UriTemplate template = UriTemplate.parse("weather://city/{name}{?units,lang}");
		assertThat(template.match("weather://city/paris?units")).isNull();
		assertThat(template.match("weather://city/paris?units=metric&&lang=fr")).isNull();
		assertThat(template.match("weather://city/paris?")).isNull();
	}

	@Test
	void noMatchForQueryWhenTemplateHasNone() {
		assertThat(UriTemplate.parse("catalog://products/{id}").match("catalog://products/42?x=1")).isNull();
		assertThat(UriTemplate.parse("file:///{+path}").match("file:///a/b?x=1")).isNull();
	}

	@Test
	void noMatchForTrailingText() {
		assertThat(UriTemplate.parse("catalog://products/{id}/info").match("catalog://products/42/infos")).isNull();
		assertThat(UriTemplate.parse("catalog://products/{id}").match("catalog://products/42#top")).isNull();
		assertThat(UriTemplate.parse("weather://city/{name}{?units}").match("weather://city/paris?units=si#x"))
			.isNull();
	}

	@Test
	void noMatchForLeadingText() {
		assertThat(UriTemplate.parse("catalog://products/{id}").match("x-catalog://products/42")).isNull();
	}

	@Test
	void noMatchForDifferentLiteralCase() {
		assertThat(UriTemplate.parse("catalog://products/{id}").match("catalog://Products/42")).isNull();
		assertThat(UriTemplate.parse("catalog://products/{id}").match("CATALOG://products/42")).isNull();
	}

	@Test
	void noMatchForUnknownKeyAfterLiteralQuery() {
		UriTemplate template = UriTemplate.parse("search://items?format=json{&page}");
		assertThat(template.match("search://items?format=json&page=1&page=2")).isNull();
		assertThat(template.match("search://items?format=xml&page=1")).isNull();
	}

	@Test
	void noMatchWithoutLiteralQueryOfContinuationTemplate() {
		UriTemplate template = UriTemplate.parse("search://items?format=json{&page}");
		assertThat(template.match("search://items")).isNull();
		assertThat(template.match("search://items?page=1")).isNull();
	}

	// Expansion

	@Test
	void expandSimpleEncodesEverythingButUnreserved() {
		UriTemplate template = UriTemplate.parse("x://{v}");
		assertThat(template.expand(Map.of("v", "a b"))).isEqualTo("x://a%20b");
		assertThat(template.expand(Map.of("v", "a/b"))).isEqualTo("x://a%2Fb");
		assertThat(template.expand(Map.of("v", "é"))).isEqualTo("x://%C3%A9");
		assertThat(template.expand(Map.of("v", "100%"))).isEqualTo("x://100%25");
		assertThat(template.expand(Map.of("v", "%2F"))).isEqualTo("x://%252F");
		assertThat(template.expand(Map.of("v", "A-z0_9.~"))).isEqualTo("x://A-z0_9.~");
		assertThat(template.expand(Map.of("v", "?#&="))).isEqualTo("x://%3F%23%26%3D");
	}

	@Test
	void expandSimpleEncodesCharactersOutsideBasicPlane() {
		assertThat(UriTemplate.parse("x://{v}").expand(Map.of("v", "\uD83D\uDE00"))).isEqualTo("x://%F0%9F%98%80");
	}

	@Test
	void expandUsesStringValueOf() {
		assertThat(UriTemplate.parse("catalog://products/{id}").expand(Map.of("id", 42)))
			.isEqualTo("catalog://products/42");
	}

	@Test
	void expandReservedKeepsSlashesReservedCharactersAndTriplets() {
		UriTemplate template = UriTemplate.parse("file:///{+path}");
		assertThat(template.expand(Map.of("path", "docs/a%2Fb/c d.md"))).isEqualTo("file:///docs/a%2Fb/c%20d.md");
		assertThat(template.expand(Map.of("path", "a:b@c!$&'()*+,;=[]"))).isEqualTo("file:///a:b@c!$&'()*+,;=[]");
		assertThat(template.expand(Map.of("path", "100%/é"))).isEqualTo("file:///100%25/%C3%A9");
	}

	@Test
	void expandQueryOmitsAbsentValues() {
		UriTemplate template = UriTemplate.parse("weather://city/{name}{?units,lang}");
		assertThat(template.expand(Map.of("name", "paris"))).isEqualTo("weather://city/paris");
		assertThat(template.expand(Map.of("name", "paris", "lang", "fr"))).isEqualTo("weather://city/paris?lang=fr");
		Map<String, Object> values = new HashMap<>();
		values.put("name", "paris");
		values.put("units", null);
		values.put("lang", "fr");
		assertThat(template.expand(values)).isEqualTo("weather://city/paris?lang=fr");
	}

	@Test
	void expandQueryInDeclarationOrderWithEncoding() {
		UriTemplate template = UriTemplate.parse("weather://city/{name}{?units,lang}");
		assertThat(template.expand(Map.of("lang", "fr ca", "units", "a&b", "name", "x")))
			.isEqualTo("weather://city/x?units=a%26b&lang=fr%20ca");
	}

	@Test
	void expandQueryContinuation() {
		UriTemplate template = UriTemplate.parse("search://items?format=json{&page,size}");
		assertThat(template.expand(Map.of())).isEqualTo("search://items?format=json");
		assertThat(template.expand(Map.of("size", 10, "page", 2)))
			.isEqualTo("search://items?format=json&page=2&size=10");
	}

	@Test
	void expandKeepsLiteralTextAsIs() {
		assertThat(UriTemplate.parse("x://a%20b/{id}").expand(Map.of("id", "1"))).isEqualTo("x://a%20b/1");
	}

	@Test
	void expandMissingSimpleVariableThrows() {
		UriTemplate template = UriTemplate.parse("catalog://products/{id}");
		assertThatIllegalArgumentException().isThrownBy(() -> template.expand(Map.of()))
			.withMessageContaining("'id'")
			.withMessageContaining("catalog://products/{id}");
	}

	@Test
	void expandNullReservedVariableThrows() {
		UriTemplate template = UriTemplate.parse("file:///{+path}");
		Map<String, Object> values = new HashMap<>();
		values.put("path", null);
		assertThatIllegalArgumentException().isThrownBy(() -> template.expand(values))
			.withMessageContaining("No value for variable 'path'");
	}

	// Round trips

	@Test
	void roundTripSimpleValues() {
		UriTemplate template = UriTemplate.parse("x://items/{id}/detail");
		for (String value : List.of("a/b", "100%", "a b", "é", "what?", "a&b", "a=b", "%2F", "a+b", "~.-_")) {
			String uri = template.expand(Map.of("id", value));
			assertThat(template.match(uri)).as(uri).containsExactly(Map.entry("id", value));
		}
	}

	@Test
	void roundTripQueryValues() {
		UriTemplate template = UriTemplate.parse("x://items/{id}{?q,r}");
		Map<String, String> values = Map.of("id", "a/b é", "q", "x=1&y=2?", "r", "50% off");
		String uri = template.expand(values);
		assertThat(uri).isEqualTo("x://items/a%2Fb%20%C3%A9?q=x%3D1%26y%3D2%3F&r=50%25%20off");
		assertThat(template.match(uri)).isEqualTo(values);
	}

	@Test
	void roundTripQueryContinuationValues() {
		UriTemplate template = UriTemplate.parse("x://items?kind={kind}{&q}");
		Map<String, String> values = Map.of("kind", "a&b=c", "q", "é?/");
		assertThat(template.match(template.expand(values))).isEqualTo(values);
	}

	@Test
	void roundTripReservedValues() {
		UriTemplate template = UriTemplate.parse("file:///{+path}");
		for (String value : List.of("docs/a b/é.md", "a/b=c&d", "50 %")) {
			String uri = template.expand(Map.of("path", value));
			assertThat(template.match(uri)).as(uri).containsExactly(Map.entry("path", value));
		}
	}

	// Encoding edge cases

	@Test
	void encodedSlashInSimpleMatchesAndDecodes() {
		assertThat(UriTemplate.parse("catalog://products/{id}").match("catalog://products/a%2Fb"))
			.containsExactly(Map.entry("id", "a/b"));
		assertThat(UriTemplate.parse("catalog://products/{id}").match("catalog://products/a%2fb"))
			.containsExactly(Map.entry("id", "a/b"));
	}

	@Test
	void rawAndEncodedNonAsciiBothDecode() {
		UriTemplate template = UriTemplate.parse("x://city/{name}");
		assertThat(template.match("x://city/é")).containsExactly(Map.entry("name", "é"));
		assertThat(template.match("x://city/%C3%A9")).containsExactly(Map.entry("name", "é"));
		assertThat(template.match("x://city/caf%C3%A9-é")).containsExactly(Map.entry("name", "café-é"));
	}

	@Test
	void invalidPercentEncodingDoesNotMatch() {
		UriTemplate template = UriTemplate.parse("x://city/{name}");
		assertThat(template.match("x://city/%zz")).isNull();
		assertThat(template.match("x://city/%C3")).isNull();
		assertThat(template.match("x://city/a%C3b")).isNull();
		assertThat(template.match("x://city/a%2")).isNull();
		assertThat(template.match("x://city/%")).isNull();
		assertThat(template.match("x://city/%FF")).isNull();
		assertThat(UriTemplate.parse("x://a{?q}").match("x://a?q=%zz")).isNull();
		assertThat(UriTemplate.parse("file:///{+p}").match("file:///a/%C3/b")).isNull();
	}

	@Test
	void percentInLiteralIsMatchedAsIs() {
		UriTemplate template = UriTemplate.parse("x://a%20b/{id}");
		assertThat(template.match("x://a%20b/1")).containsExactly(Map.entry("id", "1"));
		assertThat(template.match("x://a b/1")).isNull();
	}

	// Specificity

	@Test
	void specificityPrefersSpecificTemplatesForSameUri() {
		UriTemplate docs = UriTemplate.parse("file:///docs/{name}");
		UriTemplate any = UriTemplate.parse("file:///{+path}");
		assertThat(docs.match("file:///docs/readme.md")).isNotNull();
		assertThat(any.match("file:///docs/readme.md")).isNotNull();
		assertThat(UriTemplate.SPECIFICITY.compare(docs, any)).isNegative();
		assertThat(UriTemplate.SPECIFICITY.compare(any, docs)).isPositive();
		UriTemplate product = UriTemplate.parse("catalog://products/{id}");
		UriTemplate rest = UriTemplate.parse("catalog://{+rest}");
		assertThat(UriTemplate.SPECIFICITY.compare(product, rest)).isNegative();
	}

	@Test
	void specificitySortsTemplates() {
		List<UriTemplate> templates = new ArrayList<>(List.of(UriTemplate.parse("catalog://{+rest}"),
				UriTemplate.parse("x://{a}/{+b}"), UriTemplate.parse("catalog://products/{id}"),
				UriTemplate.parse("x://{a}/{b}"), UriTemplate.parse("x://{+a}/{+b}"), UriTemplate.parse("x://{b}"),
				UriTemplate.parse("x://{a}"), UriTemplate.parse("x://{a}{?q}"), UriTemplate.parse("catalog://products"),
				UriTemplate.parse("x://{a}/{b}/{c}")));
		templates.sort(UriTemplate.SPECIFICITY);
		assertThat(templates).extracting(UriTemplate::getTemplate)
			.containsExactly("catalog://products/{id}", "catalog://products", "catalog://{+rest}", "x://{a}/{b}/{c}",
					"x://{a}/{b}", "x://{a}/{+b}", "x://{+a}/{+b}", "x://{a}", "x://{b}", "x://{a}{?q}");
	}

	@Test
	void specificityTieIsBrokenByText() {
		UriTemplate a = UriTemplate.parse("x://{a}");
		UriTemplate b = UriTemplate.parse("x://{b}");
		assertThat(UriTemplate.SPECIFICITY.compare(a, b)).isNegative();
		assertThat(UriTemplate.SPECIFICITY.compare(b, a)).isPositive();
		assertThat(UriTemplate.SPECIFICITY.compare(a, UriTemplate.parse("x://{a}"))).isZero();
	}

	// Parse errors

	@Test
	void parseRejectsUnclosedBrace() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{id"))
			.withMessageContaining("\"x://{id\"")
			.withMessageContaining("unclosed '{' at index 4");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{a{b}"))
			.withMessageContaining("unclosed '{' at index 4");
	}

	@Test
	void parseRejectsStrayClosingBrace() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://id}"))
			.withMessageContaining("\"x://id}\"")
			.withMessageContaining("stray '}' at index 6");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{id}}"))
			.withMessageContaining("stray '}' at index 8");
	}

	@Test
	void parseRejectsEmptyExpression() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{}"))
			.withMessageContaining("empty expression '{}' at index 4");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{+}"))
			.withMessageContaining("'{+}' at index 4 has no variable name");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{?q,}"))
			.withMessageContaining("empty variable name in expression '{?q,}'");
	}

	@Test
	void parseRejectsInvalidVariableName() {
		for (String name : List.of("a-b", "a b", "a.", "a..b", "_.", "a.b.", "é", "%41", " ")) {
			assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{" + name + "}"))
				.withMessageContaining("invalid variable name '" + name + "'");
		}
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{?q,b-c}"))
			.withMessageContaining("invalid variable name 'b-c' in expression '{?q,b-c}' at index 5");
	}

	@Test
	void parseRejectsUnsupportedOperators() {
		for (String operator : List.of("#", ".", "/", ";", "=", ",", "!", "@", "|")) {
			assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{" + operator + "v}"))
				.withMessageContaining("unsupported operator '" + operator + "'")
				.withMessageContaining("supported are '{var}', '{+var}', '{?var,...}' and '{&var,...}'");
		}
	}

	@Test
	void parseRejectsModifiers() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{var*}"))
			.withMessageContaining("explode modifier '*' is not supported");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{var:3}"))
			.withMessageContaining("prefix modifier ':3' is not supported");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{?q*}"))
			.withMessageContaining("explode modifier '*' is not supported");
	}

	@Test
	void parseRejectsSeveralVariablesInSimpleOrReservedExpression() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{a,b}"))
			.withMessageContaining("'{a,b}' at index 4 has 2 variables, but '{var}' and '{+var}' take exactly one");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{+a,b}"))
			.withMessageContaining("take exactly one");
	}

	@Test
	void parseRejectsVariableUsedTwice() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{id}/{id}"))
			.withMessageContaining("variable 'id' is used more than once (again at index 9)");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{id}{?q,id}"))
			.withMessageContaining("variable 'id' is used more than once");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{?q,q}"))
			.withMessageContaining("variable 'q' is used more than once");
	}

	@Test
	void parseRejectsAdjacentExpressions() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{a}{b}"))
			.withMessageContaining("expressions '{a}' and '{b}' at index 7 are adjacent");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://{+a}{b}"))
			.withMessageContaining("are adjacent");
		assertThat(UriTemplate.parse("x://{a}{?q}").match("x://1?q=2")).isEqualTo(Map.of("a", "1", "q", "2"));
	}

	@Test
	void parseRejectsQueryExpressionThatIsNotLast() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{?q}/b"))
			.withMessageContaining("query expression '{?q}' at index 5 is not last")
			.withMessageContaining("literal text follows it at index 9");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{?q}{?r}"))
			.withMessageContaining("query expression '{?q}' at index 5 is not last");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a?b=1{&q}/c"))
			.withMessageContaining("query expression '{&q}' at index 9 is not last");
	}

	@Test
	void parseRejectsSimpleOrReservedAfterQueryExpression() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{?q}{id}"))
			.withMessageContaining("expression '{id}' at index 9 follows the query expression '{?q}'");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{?q}{+p}"))
			.withMessageContaining("expression '{+p}' at index 9 follows the query expression '{?q}'");
	}

	@Test
	void parseRejectsMisplacedQueryOperators() {
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a?b=1{?q}"))
			.withMessageContaining("follows a literal '?'; use '{&...}'");
		assertThatIllegalArgumentException().isThrownBy(() -> UriTemplate.parse("x://a{&q}"))
			.withMessageContaining("must follow a literal query");
	}

	// Hang guard

	@Test
	@Timeout(value = 5, threadMode = ThreadMode.SEPARATE_THREAD)
	void longInputDoesNotHang() {
		UriTemplate template = UriTemplate.parse("x://{+p}/end");
		String uri = "x://" + "a/".repeat(5000);
		assertThat(template.match(uri)).isNull();
		assertThat(template.match(uri + "end")).containsExactly(Map.entry("p", "a/".repeat(4999) + "a"));
	}

	@Test
	@Timeout(value = 5, threadMode = ThreadMode.SEPARATE_THREAD)
	void longInputWithSeveralReservedExpressionsDoesNotHang() {
		UriTemplate template = UriTemplate.parse("x://{+a}/{+b}/{+c}/{d}/end{?q}");
		String uri = "x://" + "/".repeat(10_000);
		assertThat(template.match(uri)).isNull();
		assertThat(template.match(uri + "?q=1")).isNull();
		assertThat(template.match("x://" + "&".repeat(10_000))).isNull();
	}

	@Test
	@Timeout(value = 5, threadMode = ThreadMode.SEPARATE_THREAD)
	void longQueryContinuationDoesNotHang() {
		UriTemplate template = UriTemplate.parse("x://a?b={b}{&c,d}");
		String uri = "x://a?b=" + "&c=1".repeat(5000);
		assertThat(template.match(uri)).isNull();
	}

}
