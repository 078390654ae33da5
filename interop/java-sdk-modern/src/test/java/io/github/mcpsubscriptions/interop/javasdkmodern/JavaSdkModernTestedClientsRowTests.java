package io.github.mcpsubscriptions.interop.javasdkmodern;

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
 * The "Tested clients" table (docs/tested-clients.md) names the MCP Java SDK that
 * {@link JavaSdkModernClientInteropTests} runs: the version on this class path, not the
 * one someone remembered.
 */
class JavaSdkModernTestedClientsRowTests {

	@Test
	void theRowNamesTheVersionThisModuleRuns() throws IOException {
		List<String> row = Files.readAllLines(Path.of("..", "..", "docs", "tested-clients.md"), StandardCharsets.UTF_8)
			.stream()
			.filter((line) -> line.startsWith("| MCP Java SDK 2026-07-28 client "))
			.map((line) -> List.of(line.split("\\|")))
			.findFirst()
			.orElseThrow(() -> new AssertionError("docs/tested-clients.md has no MCP Java SDK 2026-07-28 client row"));
		assertThat(row.get(2).strip()).as("the SDK version")
			.isEqualTo(version("io.modelcontextprotocol.sdk", "mcp-core"));
		assertThat(row.get(5)).contains("interop/java-sdk-modern",
				JavaSdkModernClientInteropTests.class.getSimpleName());
	}

	private static String version(String group, String artifact) throws IOException {
		String name = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
		try (InputStream in = JavaSdkModernTestedClientsRowTests.class.getClassLoader().getResourceAsStream(name)) {
			assertThat(in).as(name).isNotNull();
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version");
		}
	}

}
