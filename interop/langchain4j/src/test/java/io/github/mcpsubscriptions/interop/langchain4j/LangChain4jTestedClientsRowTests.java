package io.github.mcpsubscriptions.interop.langchain4j;

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
 * The "Tested clients" table (docs/tested-clients.md) names the LangChain4j client that
 * {@link LangChain4jClientInteropTests} runs: the version on this class path.
 */
class LangChain4jTestedClientsRowTests {

	@Test
	void theRowNamesTheVersionThisModuleRuns() throws IOException {
		String name = "META-INF/maven/dev.langchain4j/langchain4j-mcp/pom.properties";
		Properties properties = new Properties();
		try (InputStream in = getClass().getClassLoader().getResourceAsStream(name)) {
			assertThat(in).as(name).isNotNull();
			properties.load(in);
		}
		List<String> row = Files.readAllLines(Path.of("..", "..", "docs", "tested-clients.md"), StandardCharsets.UTF_8)
			.stream()
			.filter((line) -> line.startsWith("| LangChain4j MCP client "))
			.map((line) -> List.of(line.split("\\|")))
			.findFirst()
			.orElseThrow(() -> new AssertionError("docs/tested-clients.md has no LangChain4j MCP client row"));
		assertThat(row.get(2).strip()).isEqualTo(properties.getProperty("version"));
		assertThat(row.get(5)).contains("interop/langchain4j", LangChain4jClientInteropTests.class.getSimpleName());
	}

}
