package io.github.mcpsubscriptions.tool;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The input schema check: each keyword tool schemas use, with the path of each problem.
 */
class InputValidatorTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String PRODUCT = """
			{"type":"object","properties":{
			  "id":{"type":"integer","minimum":1},
			  "name":{"type":"string","minLength":1,"maxLength":5},
			  "price":{"type":"number","exclusiveMinimum":0},
			  "tags":{"type":"array","items":{"type":"string"},"maxItems":2},
			  "kind":{"enum":["book","lamp"]},
			  "owner":{"$ref":"#/$defs/owner"}},
			 "required":["id"],"additionalProperties":false,
			 "$defs":{"owner":{"type":"object","required":["email"],"properties":{"email":{"type":"string"}}}}}
			""";

	@Test
	void validArgumentsHaveNoProblems() {
		assertThat(problems(PRODUCT, "{\"id\":3,\"name\":\"lamp\",\"price\":9.5,\"tags\":[\"a\"],\"kind\":\"lamp\","
				+ "\"owner\":{\"email\":\"a@b\"}}"))
			.isEmpty();
		assertThat(problems(PRODUCT, "{\"id\":3.0}")).as("an integral number is an integer").isEmpty();
	}

	@Test
	void eachProblemNamesItsPlace() {
		assertThat(problems(PRODUCT, "{}")).containsExactly("$: \"id\" is required");
		assertThat(problems(PRODUCT, "{\"id\":\"3\"}")).containsExactly("$.id: expected integer, got a string");
		assertThat(problems(PRODUCT, "{\"id\":0}")).containsExactly("$.id: must be at least 1");
		assertThat(problems(PRODUCT, "{\"id\":1.5}")).containsExactly("$.id: expected integer, got a number");
		assertThat(problems(PRODUCT, "{\"id\":1,\"name\":\"\"}"))
			.containsExactly("$.name: must have at least 1 characters");
		assertThat(problems(PRODUCT, "{\"id\":1,\"name\":\"toolong\"}"))
			.containsExactly("$.name: must have at most 5 characters");
		assertThat(problems(PRODUCT, "{\"id\":1,\"price\":0}")).containsExactly("$.price: must be greater than 0");
		assertThat(problems(PRODUCT, "{\"id\":1,\"tags\":[\"a\",2]}"))
			.containsExactly("$.tags[1]: expected string, got an integer");
		assertThat(problems(PRODUCT, "{\"id\":1,\"tags\":[\"a\",\"b\",\"c\"]}"))
			.containsExactly("$.tags: must have at most 2 items");
		assertThat(problems(PRODUCT, "{\"id\":1,\"kind\":\"car\"}"))
			.containsExactly("$.kind: must be one of [\"book\",\"lamp\"]");
		assertThat(problems(PRODUCT, "{\"id\":1,\"color\":\"red\"}")).containsExactly("$.color: unknown argument");
		assertThat(problems(PRODUCT, "{\"id\":1,\"owner\":{}}")).containsExactly("$.owner: \"email\" is required");
	}

	@Test
	void combinationsAndTypeLists() {
		String schema = """
				{"type":"object","properties":{
				  "v":{"anyOf":[{"type":"string"},{"type":"integer"}]},
				  "w":{"oneOf":[{"type":"number"},{"type":"integer"}]},
				  "n":{"type":["string","null"]}}}
				""";
		assertThat(problems(schema, "{\"v\":\"x\",\"n\":null}")).isEmpty();
		assertThat(problems(schema, "{\"v\":true}")).containsExactly("$.v: matches none of the allowed forms (anyOf)");
		assertThat(problems(schema, "{\"w\":2}"))
			.containsExactly("$.w: must match exactly one of the allowed forms (oneOf)");
		assertThat(problems(schema, "{\"n\":1}"))
			.containsExactly("$.n: expected one of [\"string\",\"null\"], got an integer");
	}

	@Test
	void unknownKeywordsAndOpenSchemasAcceptAnything() {
		assertThat(problems("{\"type\":\"object\"}", "{\"anything\":[1,{}]}")).isEmpty();
		assertThat(problems("{\"type\":\"object\",\"properties\":{\"d\":{\"format\":\"date\"}}}", "{\"d\":\"x\"}"))
			.isEmpty();
	}

	@Test
	void aSelfReferringSchemaEnds() {
		String schema = "{\"$ref\":\"#\"}";
		assertThat(problems(schema, "{}")).isEmpty();
	}

	private static List<String> problems(String schema, String value) {
		JsonNode schemaNode = json.readTree(schema);
		return InputValidator.validate(schemaNode, json.readTree(value));
	}

}
