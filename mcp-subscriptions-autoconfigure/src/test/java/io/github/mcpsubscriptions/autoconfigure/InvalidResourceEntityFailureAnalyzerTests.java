package io.github.mcpsubscriptions.autoconfigure;

import java.util.List;

import io.github.mcpsubscriptions.jpa.InvalidResourceEntityException;
import io.github.mcpsubscriptions.jpa.MisnamedVariable;
import io.github.mcpsubscriptions.jpa.PostgresTestDatabase;
import io.github.mcpsubscriptions.jpa.ShopOrder;
import io.github.mcpsubscriptions.notification.InMemoryResourceChangeFeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

class InvalidResourceEntityFailureAnalyzerTests {

	@Test
	void listsEveryProblemAndSaysWhatToDo() {
		InvalidResourceEntityException cause = new InvalidResourceEntityException(
				List.of("a.Item: variable {sku} of \"shop://items/{sku}\" names no identifier or persistent property"));
		FailureAnalysis analysis = new InvalidResourceEntityFailureAnalyzer()
			.analyze(new BeanCreationException("wrapper", cause));
		assertThat(analysis.getDescription()).contains("JPA entities are mapped to MCP resources wrongly",
				"variable {sku} of \"shop://items/{sku}\"");
		assertThat(analysis.getAction()).contains("@McpResourceEntity", "identifier property", "mcp.jpa.enabled");
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aMappingThatCannotBeFilledIsReportedAtStartUpByTheAnalyzer(CapturedOutput output) {
		assertThatException().isThrownBy(
				() -> new SpringApplication(BadApplication.class).run("--spring.main.web-application-type=none"));
		assertThat(output).contains("APPLICATION FAILED TO START", "JPA entities are mapped to MCP resources wrongly",
				MisnamedVariable.class.getName() + ": variable {sku} of \"shop://items/{sku}\" names no identifier",
				"Correct the @McpResourceEntity URI templates");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(BadJpa.class)
	static class BadApplication {

		@Bean
		InMemoryResourceChangeFeed resourceChangeFeed() {
			return new InMemoryResourceChangeFeed();
		}

	}

	static class BadJpa extends PostgresTestDatabase.JpaConfiguration {

		@Override
		protected List<Class<?>> entities() {
			return List.of(ShopOrder.class, MisnamedVariable.class);
		}

	}

}
