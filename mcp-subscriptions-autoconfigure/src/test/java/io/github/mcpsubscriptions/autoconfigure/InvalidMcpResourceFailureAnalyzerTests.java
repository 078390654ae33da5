package io.github.mcpsubscriptions.autoconfigure;

import java.util.List;

import io.github.mcpsubscriptions.resource.InvalidMcpResourceException;
import io.github.mcpsubscriptions.resource.McpResource;
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

class InvalidMcpResourceFailureAnalyzerTests {

	@Test
	void listsEveryProblemAndSaysWhatToDo() {
		InvalidMcpResourceException cause = new InvalidMcpResourceException(List.of("method A.a: duplicate URI 'x://a'",
				"method B.b: URI variable 'id' of 'x://b/{id}' has no parameter"));
		FailureAnalysis analysis = new InvalidMcpResourceFailureAnalyzer()
			.analyze(new BeanCreationException("wrapper", cause));
		assertThat(analysis.getDescription()).contains("duplicate URI 'x://a'", "has no parameter");
		assertThat(analysis.getAction()).contains("@UriVariable");
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void startupFailureIsReportedByTheAnalyzer(CapturedOutput output) {
		assertThatException().isThrownBy(
				() -> new SpringApplication(BadApplication.class).run("--spring.main.web-application-type=none"));
		assertThat(output).contains("APPLICATION FAILED TO START", "MCP resources are declared wrongly",
				"URI variable 'id' of 'bad://items/{id}' has no parameter");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(BadResources.class)
	static class BadApplication {

	}

	static class BadResources {

		@McpResource(uri = "bad://items/{id}")
		String item() {
			return "";
		}

	}

}
