package io.github.mcpsubscriptions.springai;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import io.github.mcpsubscriptions.autoconfigure.McpServerAutoConfiguration;
import io.github.mcpsubscriptions.autoconfigure.McpSpringAiAutoConfiguration;
import io.github.mcpsubscriptions.tool.ToolRegistry;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What this server cannot honour fails the start with a message that names it and says
 * what to do: a Spring AI method that needs the MCP Java SDK's server session or returns
 * a reactive type, and Spring AI's own MCP server on the class path beside this one.
 */
class SpringAiStartFailureTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class, McpSpringAiAutoConfiguration.class));

	@Test
	void methodsNeedingTheSdkSessionOrReturningReactiveTypesFailTheStart() {
		this.runner.withUserConfiguration(Unsupported.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("Spring AI MCP methods that mcp-subscriptions cannot serve")
				.contains("@McpTool method " + UnsupportedServer.class.getName() + ".sample (bean 'unsupportedServer') "
						+ "takes McpSyncServerExchange, which only the MCP Java SDK's own server session provides")
				.contains("@McpPrompt method " + UnsupportedServer.class.getName() + ".later (bean "
						+ "'unsupportedServer') returns the reactive type Mono")
				.doesNotContain(".fine");
			assertThat(analysis.getAction()).contains("instead of McpSyncServerExchange")
				.contains("rather than a Mono or Flux")
				.contains("docs/coming-from-spring-ai.md");
		});
	}

	@Test
	void supportedMethodsStart() {
		this.runner.withUserConfiguration(Supported.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(SpringAiAnnotationsRegistrar.class);
		});
	}

	@Test
	void toolsSwitchedOffAreNotServed() {
		this.runner.withUserConfiguration(Supported.class)
			.withPropertyValues("mcp.tools.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ToolRegistry.class).isEmpty()).isTrue();
			});
		this.runner.withUserConfiguration(Supported.class)
			.run((context) -> assertThat(context.getBean(ToolRegistry.class).get("fine")).isNotNull());
	}

	@Test
	void springAiServerOnTheClassPathFailsTheStart(@TempDir Path classes) throws IOException {
		Path fake = classes.resolve("org/springframework/ai/mcp/server/common/autoconfigure")
			.resolve("McpServerAutoConfiguration.class");
		Files.createDirectories(fake.getParent());
		Files.write(fake, new byte[0]);
		try (URLClassLoader loader = new URLClassLoader(new URL[] { classes.toUri().toURL() },
				getClass().getClassLoader())) {
			this.runner.withClassLoader(loader).run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains(
						"Spring AI's MCP server (org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration)"
								+ " is on the class path beside mcp-subscriptions");
				assertThat(analysis.getAction()).contains("Remove Spring AI's MCP server starter")
					.contains("spring-ai-starter-mcp-server-webmvc")
					.contains("Keep spring-ai-mcp-annotations");
			});
		}
	}

	@Test
	void withoutSpringAiServerTheStartGoesOn() {
		this.runner.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void withoutSpringAiAnnotationsNothingIsRegistered() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.ai.mcp.annotation")).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(SpringAiAnnotationsRegistrar.class);
		});
	}

	@Test
	void disabledWithTheServer() {
		this.runner.withPropertyValues("mcp.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(SpringAiAnnotationsRegistrar.class));
	}

	private static FailureAnalysis analyze(Throwable failure) {
		// The analyzers as Boot finds them (spring.factories); those that need arguments
		// from a running application are not the ones under test.
		for (FailureAnalyzer analyzer : SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.ArgumentResolver.none(),
					(factoryType, factoryImplementationName, ex) -> {
					})) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis;
			}
		}
		throw new AssertionError("No failure analysis for " + failure);
	}

	@Configuration(proxyBeanMethods = false)
	static class Unsupported {

		@Bean
		UnsupportedServer unsupportedServer() {
			return new UnsupportedServer();
		}

	}

	static class UnsupportedServer {

		@McpTool(description = "Asks the client's model")
		String sample(McpSyncServerExchange exchange, String question) {
			return question;
		}

		@McpPrompt(name = "later")
		Mono<String> later() {
			return Mono.just("later");
		}

		@McpTool(description = "Fine")
		String fine(String text) {
			return text;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Supported {

		@Bean
		SupportedServer supportedServer() {
			return new SupportedServer();
		}

	}

	static class SupportedServer {

		@McpTool(description = "Fine")
		String fine(String text) {
			return text;
		}

	}

}
