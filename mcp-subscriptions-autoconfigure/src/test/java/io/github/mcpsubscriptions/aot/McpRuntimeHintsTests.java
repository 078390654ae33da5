package io.github.mcpsubscriptions.aot;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

import io.github.mcpsubscriptions.jsonrpc.JsonRpcResponse;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;
import io.github.mcpsubscriptions.resource.TextResourceContents;
import io.github.mcpsubscriptions.resource.UriVariable;
import org.junit.jupiter.api.Test;

import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpMeta;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

class McpRuntimeHintsTests {

	@Test
	void resourceMethodsOfUserBeansAreInvocableAndTheirResultsBindable() {
		RuntimeHints hints = contribute(Catalogue.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ReflectionUtils.findMethod(Catalogue.class, "product", long.class))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ReflectionUtils.findMethod(Catalogue.class, "products"))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ReflectionUtils.findMethod(Catalogue.class, "ids"))).accepts(hints);
		// Optional<Product> is unwrapped: the record's accessors are what Jackson calls.
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ReflectionUtils.findMethod(Product.class, "name"))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ReflectionUtils.findMethod(Catalogue.class, "unrelated"))).rejects(hints);
	}

	/**
	 * Spring AI's callbacks find and invoke these methods reflectively, read their
	 * arguments into the parameter types and write their results as JSON.
	 */
	@Test
	void springAiAnnotatedMethodsAreInvocableAndTheirParametersAndResultsBindable() {
		RuntimeHints hints = contribute(SpringAiServer.class);
		for (Method method : List.of(
				ReflectionUtils.findMethod(SpringAiServer.class, "quote", Order.class, McpMeta.class),
				ReflectionUtils.findMethod(SpringAiServer.class, "profile", String.class),
				ReflectionUtils.findMethod(SpringAiServer.class, "greeting", String.class),
				ReflectionUtils.findMethod(SpringAiServer.class, "names", String.class))) {
			assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method)).as(method.getName())
				.accepts(hints);
		}
		assertThat(
				RuntimeHintsPredicates.reflection().onMethodInvocation(ReflectionUtils.findMethod(Order.class, "sku")))
			.as("a parameter's record")
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ReflectionUtils.findMethod(Product.class, "name"))).as("a result's record")
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ReflectionUtils.findMethod(SpringAiServer.class, "unrelated"))).rejects(hints);
	}

	@Test
	void beansWithoutResourceMethodsContributeNothing() {
		RegisteredBean bean = register(Plain.class);
		assertThat(new McpResourceBeanRegistrationAotProcessor().processAheadOfTime(bean)).isNull();
	}

	@Test
	void theProcessorAndTheRegistrarAreFoundThroughAotFactories() {
		assertThat(AotServices.factories().load(BeanRegistrationAotProcessor.class))
			.hasAtLeastOneElementOfType(McpResourceBeanRegistrationAotProcessor.class);
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
			.hasAtLeastOneElementOfType(McpRuntimeHints.class);
	}

	@Test
	void wireTypesAreBindable() {
		RuntimeHints hints = new RuntimeHints();
		new McpRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(JsonRpcResponse.class)
			.withMemberCategories(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ReflectionUtils.findMethod(TextResourceContents.class, "text"))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ReflectionUtils.findMethod(JsonRpcResponse.class, "result"))).accepts(hints);
	}

	private static RuntimeHints contribute(Class<?> type) {
		BeanRegistrationAotContribution contribution = new McpResourceBeanRegistrationAotProcessor()
			.processAheadOfTime(register(type));
		assertThat(contribution).isNotNull();
		RuntimeHints hints = new RuntimeHints();
		GenerationContext context = mock(GenerationContext.class);
		given(context.getRuntimeHints()).willReturn(hints);
		contribution.applyTo(context, mock(BeanRegistrationCode.class));
		return hints;
	}

	private static RegisteredBean register(Class<?> type) {
		DefaultListableBeanFactory factory = new DefaultListableBeanFactory();
		factory.registerBeanDefinition("bean", new RootBeanDefinition(type));
		return RegisteredBean.of(factory, "bean");
	}

	record Product(long id, String name) {
	}

	static class Catalogue {

		@McpResource(uri = "shop://products/{id}", name = "product")
		Optional<Product> product(@UriVariable("id") long id) {
			return Optional.empty();
		}

		@McpResource(uri = "shop://products", name = "products")
		List<Product> products() {
			return List.of();
		}

		@McpResourceInstances("shop://products/{id}")
		List<Long> ids() {
			return List.of();
		}

		String unrelated() {
			return "";
		}

	}

	record Order(String sku, int quantity) {
	}

	static class SpringAiServer {

		@McpTool(description = "A price quote")
		Product quote(@McpToolParam(description = "The order") Order order, McpMeta meta) {
			return new Product(1, order.sku());
		}

		@org.springframework.ai.mcp.annotation.McpResource(uri = "profile://{name}", name = "profile")
		String profile(String name) {
			return name;
		}

		@McpPrompt(name = "greeting")
		String greeting(@McpArg(name = "name") String name) {
			return "Hello " + name;
		}

		@McpComplete(prompt = "greeting")
		List<String> names(String prefix) {
			return List.of();
		}

		String unrelated() {
			return "";
		}

	}

	static class Plain {

		String value() {
			return "";
		}

	}

}
