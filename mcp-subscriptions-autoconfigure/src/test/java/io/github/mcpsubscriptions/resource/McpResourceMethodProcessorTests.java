package io.github.mcpsubscriptions.resource;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.mcpsubscriptions.autoconfigure.McpServerAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scanner: what it registers, and a clear start-up failure for each mistake.
 */
class McpResourceMethodProcessorTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class));

	@Test
	void registersResourcesTemplatesAndListers() {
		this.runner.withBean(Good.class).run((context) -> {
			ResourceRegistry registry = context.getBean(ResourceRegistry.class);
			assertThat(registry.getResources()).extracting(ResourceDefinition::getUri).containsExactly("a://text");
			assertThat(registry.getTemplates()).extracting(ResourceDefinition::getUri)
				.containsExactly("a://items/{id}");
			ResourceDefinition text = registry.get("a://text");
			assertThat(text.getName()).isEqualTo("text");
			assertThat(text.getMimeType()).isEqualTo("text/plain");
			assertThat(registry.get("a://items/{id}").getMimeType()).isEqualTo("application/json");
			ResolvedResource item = registry.resolve("a://items/5");
			assertThat(item.definition().getReader().read(item.request())).isEqualTo(new Item(5L, "a://items/5"));
			assertThat(ResourceContentMapper.listInstances(registry.get("a://items/{id}"))).hasSize(2);
		});
	}

	@Test
	void invokesThroughProxies() {
		this.runner.withBean(Good.class, () -> (Good) new ProxyFactory(new Good()).getProxy())
			.run((context) -> assertThat(context.getBean(ResourceRegistry.class).get("a://text")).isNotNull());
	}

	@Test
	void templateVariableWithoutParameter() {
		this.runner.withBean(MissingParameter.class)
			.run(failsWith("URI variable 'id' of 'a://items/{id}' has no parameter", "MissingParameter.item"));
	}

	@Test
	void parameterThatIsNoVariable() {
		this.runner.withBean(StrayParameter.class)
			.run(failsWith("parameter 'name' is not a variable of 'a://items/{id}'"));
	}

	@Test
	void duplicateUri() {
		this.runner.withBean(Good.class)
			.withBean(Duplicate.class)
			.run(failsWith("duplicate URI 'a://text', already declared by"));
	}

	@Test
	void unsupportedReturnTypes() {
		this.runner.withBean(VoidReturn.class).run(failsWith("unsupported return type void"));
		this.runner.withBean(FutureReturn.class)
			.run(failsWith("unsupported return type java.util.concurrent.CompletableFuture"));
	}

	@Test
	void invalidTemplate() {
		this.runner.withBean(BadTemplate.class).run(failsWith("Invalid URI template \"a://{x\""));
	}

	@Test
	void invalidAnnotations() {
		this.runner.withBean(BadPriority.class).run(failsWith("priority 2.0 is not between 0 and 1"));
		this.runner.withBean(BadLastModified.class).run(failsWith("lastModified 'yesterday' is not an ISO 8601"));
	}

	@Test
	void listerForUnknownTemplate() {
		this.runner.withBean(OrphanLister.class)
			.run(failsWith("@McpResourceInstances(\"a://nothing/{id}\") names no resource template"));
	}

	@Test
	void listerWithParameters() {
		this.runner.withBean(ListerWithParameter.class)
			.run(failsWith("an @McpResourceInstances method takes no parameters"));
	}

	@Test
	void primitiveForOptionalQueryVariable() {
		this.runner.withBean(PrimitiveQuery.class).run(failsWith("cannot be a primitive"));
	}

	@Test
	void reportsEveryMistakeAtOnce() {
		this.runner.withBean(MissingParameter.class).withBean(VoidReturn.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOfSatisfying(InvalidMcpResourceException.class,
					(ex) -> assertThat(ex.getProblems()).hasSize(2));
		});
	}

	private static ContextConsumer<AssertableApplicationContext> failsWith(String... messages) {
		return (context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(InvalidMcpResourceException.class)
				.message()
				.contains(messages);
		};
	}

	public static class Good {

		@McpResource(uri = "a://text")
		public String text() {
			return "t";
		}

		@McpResource(uri = "a://items/{id}")
		public Item item(Long id, ResourceRequest request) {
			return new Item(id, request.uri());
		}

		@McpResourceInstances("a://items/{id}")
		public Long[] ids() {
			return new Long[] { 1L, 2L };
		}

	}

	public record Item(Long id, String uri) {
	}

	static class MissingParameter {

		@McpResource(uri = "a://items/{id}")
		String item() {
			return "";
		}

	}

	static class StrayParameter {

		@McpResource(uri = "a://items/{id}")
		String item(String id, String name) {
			return "";
		}

	}

	static class Duplicate {

		@McpResource(uri = "a://text")
		String again() {
			return "";
		}

	}

	static class VoidReturn {

		@McpResource(uri = "a://void")
		void nothing() {
		}

	}

	static class FutureReturn {

		@McpResource(uri = "a://future")
		CompletableFuture<String> later() {
			return CompletableFuture.completedFuture("");
		}

	}

	static class BadTemplate {

		@McpResource(uri = "a://{x")
		String broken() {
			return "";
		}

	}

	static class BadPriority {

		@McpResource(uri = "a://p", priority = 2)
		String p() {
			return "";
		}

	}

	static class BadLastModified {

		@McpResource(uri = "a://m", lastModified = "yesterday")
		String m() {
			return "";
		}

	}

	static class OrphanLister {

		@McpResourceInstances("a://nothing/{id}")
		List<String> ids() {
			return List.of();
		}

	}

	static class ListerWithParameter {

		@McpResource(uri = "a://x/{id}")
		String x(String id) {
			return id;
		}

		@McpResourceInstances("a://x/{id}")
		List<String> ids(String filter) {
			return List.of();
		}

	}

	static class PrimitiveQuery {

		@McpResource(uri = "a://search{?limit}")
		String search(int limit) {
			return "";
		}

	}

}
