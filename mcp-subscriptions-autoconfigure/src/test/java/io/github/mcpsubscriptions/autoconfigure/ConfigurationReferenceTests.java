package io.github.mcpsubscriptions.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration reference (docs/configuration.md) and the generated configuration metadata describe the
 * same properties with the same defaults.
 */
class ConfigurationReferenceTests {

	private static final Pattern ROW = Pattern.compile("^\\| `(mcp\\.[a-z0-9.-]+)` \\|([^|]*)\\|.*$",
			Pattern.MULTILINE);

	@Test
	void everyPropertyIsDocumentedWithItsDefault() throws IOException {
		Map<String, String> documented = documented();
		for (JsonNode property : metadata().get("properties")) {
			String name = property.get("name").stringValue();
			if (!name.startsWith("mcp.")) {
				continue;
			}
			assertThat(documented).as("docs/configuration.md documents %s", name).containsKey(name);
			JsonNode defaultValue = property.get("defaultValue");
			if (defaultValue != null && !defaultValue.isNull()) {
				assertThat(documented.get(name)).as("docs/configuration.md's default of %s", name)
					.isEqualTo("`" + defaultValue.asString() + "`");
			}
		}
	}

	@Test
	void everyDocumentedPropertyExists() throws IOException {
		List<String> names = metadata().get("properties").valueStream()
			.map((property) -> property.get("name").stringValue())
			.toList();
		assertThat(names).containsAll(documented().keySet());
	}

	private static Map<String, String> documented() throws IOException {
		String section = Files.readString(Path.of("..", "docs", "configuration.md"), StandardCharsets.UTF_8);
		Map<String, String> rows = new LinkedHashMap<>();
		Matcher matcher = ROW.matcher(section);
		while (matcher.find()) {
			rows.put(matcher.group(1), matcher.group(2).strip());
		}
		assertThat(rows).as("docs/configuration.md has a configuration table").hasSizeGreaterThan(10);
		return rows;
	}

	private static JsonNode metadata() throws IOException {
		try (InputStream in = ConfigurationReferenceTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("generated configuration metadata").isNotNull();
			return JsonMapper.builder().build().readTree(in);
		}
	}

}
