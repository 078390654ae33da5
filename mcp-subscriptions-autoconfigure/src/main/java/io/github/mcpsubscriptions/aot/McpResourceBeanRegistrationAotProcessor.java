package io.github.mcpsubscriptions.aot;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.mcpsubscriptions.prompt.McpPrompt;
import io.github.mcpsubscriptions.resource.McpResource;
import io.github.mcpsubscriptions.resource.McpResourceInstances;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Registers reflection hints for the {@link McpResource}, {@link McpResourceInstances}
 * and {@link McpPrompt} methods of application beans: the starter finds and invokes them
 * reflectively at startup, and writes what they return as JSON, which a native image can
 * only do for methods and types it was told about. The same for the methods annotated
 * with Spring AI's {@code @McpTool}, {@code @McpResource}, {@code @McpPrompt} and
 * {@code @McpComplete} when {@code spring-ai-mcp-annotations} is on the class path:
 * Spring AI's callbacks find and invoke them reflectively, bind their parameters from
 * JSON and write their results as JSON, so their parameter types are made bindable too.
 *
 * @since 0.1.0
 */
public class McpResourceBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

	private static final List<String> SPRING_AI_ANNOTATIONS = List.of("org.springframework.ai.mcp.annotation.McpTool",
			"org.springframework.ai.mcp.annotation.McpResource", "org.springframework.ai.mcp.annotation.McpPrompt",
			"org.springframework.ai.mcp.annotation.McpComplete");

	private final BindingReflectionHintsRegistrar bindingRegistrar = new BindingReflectionHintsRegistrar();

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> type = ClassUtils.getUserClass(registeredBean.getBeanClass());
		Set<Method> springAi = springAiMethods(type);
		if (!AnnotationUtils.isCandidateClass(type, McpResource.class)
				&& !AnnotationUtils.isCandidateClass(type, McpResourceInstances.class)
				&& !AnnotationUtils.isCandidateClass(type, McpPrompt.class) && springAi.isEmpty()) {
			return null;
		}
		Set<Method> methods = new LinkedHashSet<>();
		methods.addAll(
				MethodIntrospector
					.selectMethods(type,
							(MethodIntrospector.MetadataLookup<McpResource>) (method) -> AnnotatedElementUtils
								.findMergedAnnotation(method, McpResource.class))
					.keySet());
		methods.addAll(
				MethodIntrospector
					.selectMethods(type,
							(MethodIntrospector.MetadataLookup<McpResourceInstances>) (method) -> AnnotatedElementUtils
								.findMergedAnnotation(method, McpResourceInstances.class))
					.keySet());
		methods.addAll(
				MethodIntrospector
					.selectMethods(type,
							(MethodIntrospector.MetadataLookup<McpPrompt>) (method) -> AnnotatedElementUtils
								.findMergedAnnotation(method, McpPrompt.class))
					.keySet());
		if (methods.isEmpty() && springAi.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> {
			ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
			for (Method method : methods) {
				reflection.registerMethod(method, ExecutableMode.INVOKE);
				// The return value is written with Jackson: its properties are read
				// reflectively.
				this.bindingRegistrar.registerReflectionHints(reflection, method.getGenericReturnType());
			}
			for (Method method : springAi) {
				reflection.registerMethod(method, ExecutableMode.INVOKE);
				this.bindingRegistrar.registerReflectionHints(reflection, method.getGenericReturnType());
				// Spring AI reads the arguments into the parameters' types with Jackson.
				for (Type parameter : method.getGenericParameterTypes()) {
					this.bindingRegistrar.registerReflectionHints(reflection, parameter);
				}
			}
		};
	}

	/**
	 * The methods with one of Spring AI's server annotations, named by class name so that
	 * nothing of Spring AI is needed on the class path.
	 */
	private static Set<Method> springAiMethods(Class<?> type) {
		Set<Method> methods = new LinkedHashSet<>();
		ClassLoader loader = type.getClassLoader();
		for (String name : SPRING_AI_ANNOTATIONS) {
			if (!ClassUtils.isPresent(name, loader)) {
				continue;
			}
			@SuppressWarnings("unchecked")
			Class<? extends Annotation> annotation = (Class<? extends Annotation>) ClassUtils.resolveClassName(name,
					loader);
			if (AnnotationUtils.isCandidateClass(type, annotation)) {
				methods.addAll(
						MethodIntrospector
							.selectMethods(type,
									(MethodIntrospector.MetadataLookup<Annotation>) (method) -> AnnotatedElementUtils
										.findMergedAnnotation(method, annotation))
							.keySet());
			}
		}
		return methods;
	}

}
