package io.github.mcpsubscriptions.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration reference, {@code docs/configuration.md}, is generated from the
 * configuration metadata the build produces: below its marker line the page must be
 * exactly what the metadata says, so that the page cannot drift from the properties. The
 * generated page is written to {@code target/generated-docs/configuration.md} on every
 * run.
 */
class ConfigurationReferenceTests {

	static final String MARKER = "<!-- Generated from the configuration metadata by ConfigurationReferenceTests; edit the properties' Javadoc, not this page. -->";

	private static final Path PAGE = Path.of("..", "docs", "configuration.md");

	/** The prefix of the properties Spring Boot derives for the Actuator endpoint. */
	private static final String ENDPOINT = "management.endpoint.mcpsubscriptions.";

	private static final Pattern QUOTED = Pattern.compile("'([^'\\s]+)'");

	@Test
	void pageIsGeneratedFromTheMetadata() throws IOException {
		String page = Files.readString(PAGE, StandardCharsets.UTF_8);
		int marker = page.indexOf(MARKER);
		assertThat(marker).as("docs/configuration.md has the marker line").isNotNegative();
		String expected = page.substring(0, marker) + MARKER + "\n" + generate(metadata());
		Path generated = Path.of("target", "generated-docs", "configuration.md");
		Files.createDirectories(generated.getParent());
		Files.writeString(generated, expected, StandardCharsets.UTF_8);
		assertThat(page)
			.as("docs/configuration.md differs from the configuration metadata; "
					+ "cp mcp-subscriptions-autoconfigure/%s docs/configuration.md", generated)
			.isEqualTo(expected);
	}

	@Test
	void everyPropertyHasADescriptionAndADefault() throws IOException {
		List<String> undescribed = new ArrayList<>();
		for (JsonNode property : properties(metadata())) {
			if (!property.hasNonNull("description") || property.get("description").asString().isBlank()) {
				undescribed.add(property.get("name").asString());
			}
		}
		assertThat(undescribed).as("properties without a description").isEmpty();
		assertThat(properties(metadata()))
			.filteredOn((property) -> property.get("name").asString().startsWith("mcp.notifications.delivery-"))
			.allSatisfy((property) -> assertThat(property.hasNonNull("defaultValue")).isTrue());
	}

	@Test
	void listsTheActuatorEndpointsOwnProperties() throws IOException {
		assertThat(generate(metadata())).contains("## `management.endpoint.mcpsubscriptions.*`")
			.contains("| `management.endpoint.mcpsubscriptions.access` | `unrestricted` |")
			.contains("| `management.endpoint.mcpsubscriptions.cache.time-to-live` | `0ms` |");
	}

	static String generate(JsonNode metadata) {
		// The starter's own groups by name, then the Actuator endpoint's.
		Map<String, List<JsonNode>> groups = new TreeMap<>(
				Comparator.comparing((String group) -> group.startsWith(ENDPOINT))
					.thenComparing(Comparator.naturalOrder()));
		for (JsonNode property : properties(metadata)) {
			String name = property.get("name").asString();
			String[] parts = name.split("\\.");
			String group = name.startsWith(ENDPOINT) ? ENDPOINT + "*"
					: (parts.length > 2) ? "mcp." + parts[1] + ".*" : "mcp.*";
			groups.computeIfAbsent(group, (key) -> new ArrayList<>()).add(property);
		}
		StringBuilder out = new StringBuilder();
		groups.forEach((group, members) -> {
			out.append("\n## `").append(group).append("`\n\n");
			out.append("| property | default | description |\n|---|---|---|\n");
			members.sort(Comparator.comparing((JsonNode property) -> property.get("name").asString()));
			for (JsonNode property : members) {
				out.append("| `")
					.append(property.get("name").asString())
					.append("` | ")
					.append(defaultValue(property.get("defaultValue")))
					.append(" | ")
					.append(description(property))
					.append(" |\n");
			}
		});
		return out.toString();
	}

	private static String defaultValue(JsonNode value) {
		if (value == null || value.isNull()) {
			return "";
		}
		String text = value.isArray() ? value.valueStream().map(JsonNode::asString).collect(Collectors.joining(","))
				: value.asString();
		return text.isEmpty() ? "" : "`" + text + "`";
	}

	private static String description(JsonNode property) {
		String text = property.hasNonNull("description") ? property.get("description").asString() : "";
		JsonNode deprecation = property.get("deprecation");
		if (deprecation != null && !deprecation.isNull()) {
			text = "**Deprecated**" + (deprecation.hasNonNull("replacement")
					? ": use `" + deprecation.get("replacement").asString() + "`" : "") + ". " + text;
		}
		return QUOTED.matcher(text.replace("|", "\\|").replace("\n", " ")).replaceAll("`$1`");
	}

	private static List<JsonNode> properties(JsonNode metadata) {
		List<JsonNode> properties = new ArrayList<>();
		for (JsonNode property : metadata.get("properties")) {
			String name = property.get("name").asString();
			if (name.startsWith("mcp.") || name.startsWith(ENDPOINT)) {
				properties.add(property);
			}
		}
		return properties;
	}

	private static JsonNode metadata() throws IOException {
		try (InputStream in = ConfigurationReferenceTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("generated configuration metadata").isNotNull();
			return JsonMapper.builder().build().readTree(in);
		}
	}

}
