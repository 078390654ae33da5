package io.github.mcpsubscriptions.events;

import java.beans.PropertyDescriptor;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.time.temporal.Temporal;
import java.util.Collection;
import java.util.Date;
import java.util.EventObject;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.BeanUtils;
import org.springframework.context.ApplicationEvent;
import org.springframework.core.ResolvableType;

/**
 * Derives a JSON Schema from a Java type: a record's components or a bean's readable
 * properties, as Jackson writes them by default. Covers what event payloads and
 * subscription arguments are made of: strings (and what is written as one: enums, UUIDs,
 * URIs, dates), numbers, booleans, collections, arrays, maps and nested records or beans.
 * Primitive members are {@code required}; the properties of an {@link ApplicationEvent}
 * ({@code source}, {@code timestamp}) are not part of the payload.
 */
final class TypeSchemas {

	private static final JsonNodeFactory nodes = JsonNodeFactory.instance;

	private static final int MAX_DEPTH = 16;

	private TypeSchemas() {
	}

	/**
	 * The schema of an object type.
	 * @param type the type
	 * @param closed whether properties not named are refused
	 * ({@code additionalProperties:
	 * false})
	 * @return the schema, of {@code "type": "object"}
	 */
	static ObjectNode objectSchema(Class<?> type, boolean closed) {
		ObjectNode schema = objectOf(ResolvableType.forClass(type), new HashSet<>(), 0);
		if (closed) {
			schema.put("additionalProperties", false);
		}
		return schema;
	}

	/**
	 * The names of the members the schema of a type describes, in their order.
	 * @param type the type
	 * @return the names
	 */
	static Set<String> propertyNames(Class<?> type) {
		return members(ResolvableType.forClass(type)).keySet();
	}

	private static ObjectNode schemaOf(ResolvableType type, Set<Class<?>> visiting, int depth) {
		Class<?> raw = type.toClass();
		ObjectNode schema = nodes.objectNode();
		if (raw == String.class || raw == char.class || raw == Character.class || raw == UUID.class || raw == URI.class
				|| raw == URL.class) {
			return schema.put("type", "string");
		}
		if (Temporal.class.isAssignableFrom(raw) || Date.class.isAssignableFrom(raw)) {
			return schema.put("type", "string").put("format", "date-time");
		}
		if (raw == boolean.class || raw == Boolean.class) {
			return schema.put("type", "boolean");
		}
		if (raw == int.class || raw == long.class || raw == short.class || raw == byte.class || raw == Integer.class
				|| raw == Long.class || raw == Short.class || raw == Byte.class || raw == BigInteger.class) {
			return schema.put("type", "integer");
		}
		if (raw == double.class || raw == float.class || Number.class.isAssignableFrom(raw)
				|| raw == BigDecimal.class) {
			return schema.put("type", "number");
		}
		if (raw.isEnum()) {
			ArrayNode values = schema.put("type", "string").putArray("enum");
			for (Object constant : raw.getEnumConstants()) {
				values.add(((Enum<?>) constant).name());
			}
			return schema;
		}
		if (raw == Optional.class) {
			return schemaOf(type.getGeneric(0), visiting, depth);
		}
		if (raw.isArray() || Collection.class.isAssignableFrom(raw)) {
			ResolvableType element = raw.isArray() ? type.getComponentType() : type.asCollection().getGeneric(0);
			schema.put("type", "array");
			if (element.resolve() != null && element.resolve() != Object.class) {
				schema.set("items", schemaOf(element, visiting, depth + 1));
			}
			return schema;
		}
		if (Map.class.isAssignableFrom(raw)) {
			ResolvableType value = type.asMap().getGeneric(1);
			schema.put("type", "object");
			if (value.resolve() != null && value.resolve() != Object.class) {
				schema.set("additionalProperties", schemaOf(value, visiting, depth + 1));
			}
			return schema;
		}
		if (raw == Object.class || raw.isInterface() || depth > MAX_DEPTH || visiting.contains(raw)) {
			// Anything at all: an untyped member, or a type that contains itself.
			return schema;
		}
		return objectOf(type, visiting, depth);
	}

	private static ObjectNode objectOf(ResolvableType type, Set<Class<?>> visiting, int depth) {
		Class<?> raw = type.toClass();
		visiting.add(raw);
		ObjectNode schema = nodes.objectNode().put("type", "object");
		ObjectNode properties = schema.putObject("properties");
		ArrayNode required = nodes.arrayNode();
		members(type).forEach((name, member) -> {
			properties.set(name, schemaOf(member, visiting, depth + 1));
			if (member.toClass().isPrimitive()) {
				required.add(name);
			}
		});
		if (!required.isEmpty()) {
			schema.set("required", required);
		}
		visiting.remove(raw);
		return schema;
	}

	private static Map<String, ResolvableType> members(ResolvableType type) {
		Class<?> raw = type.toClass();
		Map<String, ResolvableType> members = new LinkedHashMap<>();
		if (raw.isRecord()) {
			for (RecordComponent component : raw.getRecordComponents()) {
				members.put(component.getName(), ResolvableType.forMethodReturnType(component.getAccessor(), raw));
			}
			return members;
		}
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(raw)) {
			if (property.getReadMethod() == null) {
				continue;
			}
			Class<?> declaring = property.getReadMethod().getDeclaringClass();
			if (declaring == Object.class || declaring == EventObject.class || declaring == ApplicationEvent.class) {
				continue;
			}
			members.put(property.getName(), ResolvableType.forMethodReturnType(property.getReadMethod(), raw));
		}
		return members;
	}

}
