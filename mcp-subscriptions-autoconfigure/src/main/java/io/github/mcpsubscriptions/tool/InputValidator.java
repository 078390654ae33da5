package io.github.mcpsubscriptions.tool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Checks a tool's arguments against its input schema before the tool runs, so that a
 * model gets a precise message it can act on instead of whatever the tool would make of
 * bad input. Covers the JSON Schema keywords tool schemas use: {@code type},
 * {@code properties}, {@code required}, {@code additionalProperties}, {@code items},
 * {@code enum}, {@code const}, the numeric and length bounds,
 * {@code allOf}/{@code anyOf}/ {@code oneOf}/{@code not} and local {@code $ref}s
 * ({@code #/$defs/…}, {@code #/definitions/…}); other keywords (formats, patterns, …) are
 * not checked.
 *
 * @since 0.1.0
 */
public final class InputValidator {

	private static final int MAX_PROBLEMS = 10;

	private static final int MAX_DEPTH = 64;

	private InputValidator() {
	}

	/**
	 * Validate a value.
	 * @param schema the schema
	 * @param value the value
	 * @return the problems found, each naming where (e.g. {@code $.price}); empty when
	 * valid
	 */
	public static List<String> validate(JsonNode schema, JsonNode value) {
		List<String> problems = new ArrayList<>();
		check(schema, schema, value, "$", problems, 0);
		return (problems.size() > MAX_PROBLEMS) ? problems.subList(0, MAX_PROBLEMS) : problems;
	}

	private static void check(JsonNode root, JsonNode schema, JsonNode value, String path, List<String> problems,
			int depth) {
		if (depth > MAX_DEPTH || problems.size() > MAX_PROBLEMS) {
			return;
		}
		if (schema.isBoolean()) {
			if (!schema.asBoolean()) {
				problems.add(path + ": no value is allowed here");
			}
			return;
		}
		if (!schema.isObject()) {
			return;
		}
		JsonNode ref = schema.get("$ref");
		if (ref != null && ref.isString()) {
			JsonNode target = resolve(root, ref.stringValue());
			if (target != null) {
				check(root, target, value, path, problems, depth + 1);
			}
		}
		JsonNode type = schema.get("type");
		if (type != null && !matchesType(type, value)) {
			problems.add(path + ": expected " + describe(type) + ", got " + typeOf(value));
			return;
		}
		JsonNode constant = schema.get("const");
		if (constant != null && !equal(constant, value)) {
			problems.add(path + ": must be " + constant);
		}
		JsonNode enumeration = schema.get("enum");
		if (enumeration != null && enumeration.isArray()) {
			boolean found = false;
			for (JsonNode option : enumeration) {
				found |= equal(option, value);
			}
			if (!found) {
				problems.add(path + ": must be one of " + enumeration);
			}
		}
		if (value.isNumber()) {
			checkNumber(schema, value.asDouble(), path, problems);
		}
		if (value.isString()) {
			int length = value.stringValue().codePointCount(0, value.stringValue().length());
			bound(schema, "minLength", length, path, "at least %s characters", problems, true);
			bound(schema, "maxLength", length, path, "at most %s characters", problems, false);
		}
		if (value.isArray()) {
			bound(schema, "minItems", value.size(), path, "at least %s items", problems, true);
			bound(schema, "maxItems", value.size(), path, "at most %s items", problems, false);
			JsonNode items = schema.get("items");
			if (items != null && (items.isObject() || items.isBoolean())) {
				for (int i = 0; i < value.size(); i++) {
					check(root, items, value.get(i), path + "[" + i + "]", problems, depth + 1);
				}
			}
		}
		if (value.isObject()) {
			checkObject(root, schema, value, path, problems, depth);
		}
		checkCombinations(root, schema, value, path, problems, depth);
	}

	private static void checkObject(JsonNode root, JsonNode schema, JsonNode value, String path, List<String> problems,
			int depth) {
		JsonNode required = schema.get("required");
		if (required != null && required.isArray()) {
			for (JsonNode name : required) {
				if (name.isString() && !value.has(name.stringValue())) {
					problems.add(path + ": \"" + name.stringValue() + "\" is required");
				}
			}
		}
		JsonNode properties = schema.get("properties");
		JsonNode additional = schema.get("additionalProperties");
		for (Map.Entry<String, JsonNode> entry : value.properties()) {
			JsonNode property = (properties != null && properties.isObject()) ? properties.get(entry.getKey()) : null;
			String where = path + "." + entry.getKey();
			if (property != null) {
				check(root, property, entry.getValue(), where, problems, depth + 1);
			}
			else if (additional != null && additional.isBoolean() && !additional.asBoolean()) {
				problems.add(where + ": unknown argument");
			}
			else if (additional != null && additional.isObject()) {
				check(root, additional, entry.getValue(), where, problems, depth + 1);
			}
		}
	}

	private static void checkCombinations(JsonNode root, JsonNode schema, JsonNode value, String path,
			List<String> problems, int depth) {
		JsonNode allOf = schema.get("allOf");
		if (allOf != null && allOf.isArray()) {
			for (JsonNode part : allOf) {
				check(root, part, value, path, problems, depth + 1);
			}
		}
		JsonNode anyOf = schema.get("anyOf");
		if (anyOf != null && anyOf.isArray() && matching(root, anyOf, value, path, depth) == 0) {
			problems.add(path + ": matches none of the allowed forms (anyOf)");
		}
		JsonNode oneOf = schema.get("oneOf");
		if (oneOf != null && oneOf.isArray() && matching(root, oneOf, value, path, depth) != 1) {
			problems.add(path + ": must match exactly one of the allowed forms (oneOf)");
		}
		JsonNode not = schema.get("not");
		if (not != null && (not.isObject() || not.isBoolean())) {
			List<String> inner = new ArrayList<>();
			check(root, not, value, path, inner, depth + 1);
			if (inner.isEmpty()) {
				problems.add(path + ": matches a form that is not allowed (not)");
			}
		}
	}

	private static int matching(JsonNode root, JsonNode options, JsonNode value, String path, int depth) {
		int count = 0;
		for (JsonNode option : options) {
			List<String> inner = new ArrayList<>();
			check(root, option, value, path, inner, depth + 1);
			count += inner.isEmpty() ? 1 : 0;
		}
		return count;
	}

	private static void checkNumber(JsonNode schema, double number, String path, List<String> problems) {
		JsonNode minimum = schema.get("minimum");
		if (minimum != null && minimum.isNumber() && number < minimum.asDouble()) {
			problems.add(path + ": must be at least " + minimum);
		}
		JsonNode maximum = schema.get("maximum");
		if (maximum != null && maximum.isNumber() && number > maximum.asDouble()) {
			problems.add(path + ": must be at most " + maximum);
		}
		JsonNode exclusiveMinimum = schema.get("exclusiveMinimum");
		if (exclusiveMinimum != null && exclusiveMinimum.isNumber() && number <= exclusiveMinimum.asDouble()) {
			problems.add(path + ": must be greater than " + exclusiveMinimum);
		}
		JsonNode exclusiveMaximum = schema.get("exclusiveMaximum");
		if (exclusiveMaximum != null && exclusiveMaximum.isNumber() && number >= exclusiveMaximum.asDouble()) {
			problems.add(path + ": must be less than " + exclusiveMaximum);
		}
	}

	private static void bound(JsonNode schema, String keyword, int actual, String path, String text,
			List<String> problems, boolean lower) {
		JsonNode limit = schema.get(keyword);
		if (limit != null && limit.isNumber() && (lower ? actual < limit.asInt() : actual > limit.asInt())) {
			problems.add(path + ": must have " + String.format(text, limit.asInt()));
		}
	}

	private static @Nullable JsonNode resolve(JsonNode root, String ref) {
		if (!ref.startsWith("#")) {
			return null;
		}
		JsonNode target = root.at(ref.substring(1));
		return (target == null || target.isMissingNode()) ? null : target;
	}

	private static boolean matchesType(JsonNode type, JsonNode value) {
		if (type.isArray()) {
			for (JsonNode option : type) {
				if (matchesType(option, value)) {
					return true;
				}
			}
			return false;
		}
		if (!type.isString()) {
			return true;
		}
		return switch (type.stringValue()) {
			case "object" -> value.isObject();
			case "array" -> value.isArray();
			case "string" -> value.isString();
			case "boolean" -> value.isBoolean();
			case "null" -> value.isNull();
			case "number" -> value.isNumber();
			case "integer" ->
				value.isIntegralNumber() || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble()));
			default -> true;
		};
	}

	private static boolean equal(JsonNode expected, JsonNode value) {
		if (expected.isNumber() && value.isNumber()) {
			return expected.asDouble() == value.asDouble();
		}
		return expected.equals(value);
	}

	private static String describe(JsonNode type) {
		return type.isArray() ? "one of " + type : type.asString();
	}

	private static String typeOf(JsonNode value) {
		if (value.isObject()) {
			return "an object";
		}
		if (value.isArray()) {
			return "an array";
		}
		if (value.isString()) {
			return "a string";
		}
		if (value.isBoolean()) {
			return "a boolean";
		}
		if (value.isNull()) {
			return "null";
		}
		return value.isIntegralNumber() ? "an integer" : "a number";
	}

}
