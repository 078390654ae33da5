package io.github.mcpsubscriptions.jpa;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsubscriptions.resource.UriTemplate;
import org.hibernate.persister.entity.EntityPersister;
import org.hibernate.type.Type;
import org.jspecify.annotations.Nullable;

/**
 * One entity's {@link McpResourceEntity} mapping, checked against the entity's Hibernate
 * metamodel: which value fills each variable of the template.
 */
final class EntityResourceMapping {

	/** Stands for the identifier in {@link #variables}. */
	private static final int IDENTIFIER = -1;

	private final UriTemplate template;

	/** Property index (or {@link #IDENTIFIER}) by variable name. */
	private final Map<String, Integer> variables;

	private EntityResourceMapping(UriTemplate template, Map<String, Integer> variables) {
		this.template = template;
		this.variables = variables;
	}

	/**
	 * Checks a mapping against the entity: each variable must name the identifier or a
	 * basic property.
	 * @param persister the entity's persister
	 * @param annotation the entity's mapping
	 * @param problems where to add what is wrong
	 * @return the mapping, or {@code null} if it has problems
	 */
	static @Nullable EntityResourceMapping of(EntityPersister persister, McpResourceEntity annotation,
			List<String> problems) {
		String entity = persister.getMappedClass().getName();
		UriTemplate template;
		try {
			template = UriTemplate.parse(annotation.uri());
		}
		catch (IllegalArgumentException ex) {
			problems.add(entity + ": the URI template \"" + annotation.uri() + "\" is invalid: " + ex.getMessage());
			return null;
		}
		List<String> properties = Arrays.asList(persister.getPropertyNames());
		Map<String, Integer> variables = new LinkedHashMap<>();
		int before = problems.size();
		for (String variable : template.getVariableNames()) {
			if (variable.equals(persister.getIdentifierPropertyName())) {
				if (persister.getIdentifierType().isComponentType()) {
					problems.add(entity + ": variable {" + variable + "} of \"" + annotation.uri()
							+ "\" names a composite identifier; name its parts' properties instead");
				}
				variables.put(variable, IDENTIFIER);
				continue;
			}
			int index = properties.indexOf(variable);
			if (index < 0) {
				problems.add(entity + ": variable {" + variable + "} of \"" + annotation.uri()
						+ "\" names no identifier or persistent property; it has " + describe(persister));
				continue;
			}
			Type type = persister.getPropertyTypes()[index];
			if (type.isAssociationType() || type.isCollectionType() || type.isComponentType()) {
				problems.add(entity + ": variable {" + variable + "} of \"" + annotation.uri()
						+ "\" names an association, collection or embedded property; name a basic property");
				continue;
			}
			variables.put(variable, index);
		}
		return (problems.size() == before) ? new EntityResourceMapping(template, Map.copyOf(variables)) : null;
	}

	private static String describe(EntityPersister persister) {
		StringBuilder names = new StringBuilder();
		if (persister.getIdentifierPropertyName() != null) {
			names.append("identifier ").append(persister.getIdentifierPropertyName());
		}
		else {
			names.append("no identifier property");
		}
		names.append(" and properties ").append(String.join(", ", persister.getPropertyNames()));
		return names.toString();
	}

	/**
	 * The URI of one state of an entity.
	 * @param id the entity's identifier
	 * @param state the entity's property values, in the persister's order
	 * @return the URI, or {@code null} if a variable outside the query has no value
	 */
	@Nullable String uri(Object id, @Nullable Object[] state) {
		Map<String, Object> values = new HashMap<>();
		for (Map.Entry<String, Integer> variable : this.variables.entrySet()) {
			Object value = (variable.getValue() == IDENTIFIER) ? id : state[variable.getValue()];
			if (value != null) {
				values.put(variable.getKey(), value);
			}
		}
		try {
			return this.template.expand(values);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	String getTemplate() {
		return this.template.getTemplate();
	}

}
