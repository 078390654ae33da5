package io.github.mcpsubscriptions.interop.springai;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The "Tested clients" table (docs/tested-clients.md) names the Spring AI client and the
 * MCP Java SDK that {@link SpringAiClientInteropTests} runs: the versions on this class
 * path, not the ones someone remembered.
 */
class SpringAiTestedClientsRowTests {

	@Test
	void theRowNamesTheVersionsThisModuleRuns() throws IOException {
		List<String> row = Files.readAllLines(Path.of("..", "..", "docs", "tested-clients.md"), StandardCharsets.UTF_8)
			.stream()
			.filter((line) -> line.startsWith("| Spring AI MCP client "))
			.map((line) -> List.of(line.split("\\|")))
			.findFirst()
			.orElseThrow(() -> new AssertionError("docs/tested-clients.md has no Spring AI MCP client row"));
		assertThat(row.get(2).strip()).as("the Spring AI version")
			.isEqualTo(version("org.springframework.ai", "spring-ai-mcp"));
		assertThat(row.get(1)).as("the MCP Java SDK it brings")
			.contains("MCP Java SDK " + version("io.modelcontextprotocol.sdk", "mcp-core"));
		assertThat(row.get(5)).contains("interop/spring-ai", SpringAiClientInteropTests.class.getSimpleName());
	}

	private static String version(String group, String artifact) throws IOException {
		String name = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
		try (InputStream in = SpringAiTestedClientsRowTests.class.getClassLoader().getResourceAsStream(name)) {
			assertThat(in).as(name).isNotNull();
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version");
		}
	}

}
