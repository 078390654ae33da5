package io.github.mcpsubscriptions.autoconfigure;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.mcpsubscriptions.prompt.InvalidMcpPromptException;
import io.github.mcpsubscriptions.prompt.McpPrompt;
import io.github.mcpsubscriptions.prompt.McpPromptArgument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

class InvalidMcpPromptFailureAnalyzerTests {

	@Test
	void listsEveryProblemAndSaysWhatToDo() {
		InvalidMcpPromptException cause = new InvalidMcpPromptException(
				List.of("method A.a: duplicate prompt name 'x'", "method B.b: unsupported return type void"));
		FailureAnalysis analysis = new InvalidMcpPromptFailureAnalyzer()
			.analyze(new BeanCreationException("wrapper", cause));
		assertThat(analysis.getDescription()).contains("duplicate prompt name 'x'", "unsupported return type void");
		assertThat(analysis.getAction()).contains("@McpPromptArgument");
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void startupFailureNamesEveryBadMethod(CapturedOutput output) {
		assertThatException().isThrownBy(
				() -> new SpringApplication(BadApplication.class).run("--spring.main.web-application-type=none"));
		assertThat(output).contains("APPLICATION FAILED TO START", "MCP prompts are declared wrongly",
				"BadPrompts.nothing", "unsupported return type void", "BadPrompts.later",
				"unsupported return type java.util.concurrent.CompletableFuture", "BadPrompts.optionalPrimitive",
				"the optional argument 'count' cannot be a primitive int", "BadPrompts.unconvertible",
				"the argument 'task' cannot be converted from a String", "BadPrompts.twice",
				"declares the argument 'a' twice", "BadPrompts.duplicate", "duplicate prompt name 'same'");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(BadPrompts.class)
	static class BadApplication {

	}

	static class BadPrompts {

		@McpPrompt
		void nothing() {
		}

		@McpPrompt
		CompletableFuture<String> later() {
			return CompletableFuture.completedFuture("");
		}

		@McpPrompt
		String optionalPrimitive(@McpPromptArgument(required = false) int count) {
			return "";
		}

		@McpPrompt
		String unconvertible(Runnable task) {
			return "";
		}

		@McpPrompt
		String twice(String a, @McpPromptArgument(name = "a") String b) {
			return "";
		}

		@McpPrompt(name = "same")
		String original() {
			return "";
		}

		@McpPrompt(name = "same")
		String duplicate() {
			return "";
		}

	}

}
